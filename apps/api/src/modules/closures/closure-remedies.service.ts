import { formatSessionTime } from '@kringle/contracts/dates';
import type { FastifyInstance } from 'fastify';
import type { Tx } from '../../db/client';
import { errors, notFound } from '../../lib/errors';
import { familyActor, type Actor } from '../audit-trail/audit-entries.repository';
import { leadCutoffOf } from '../booking-lifecycle/booking-policy';
import { bookingDetails, lockBooking, slotStart, type BookingRow } from '../booking-lifecycle/booking-rows.repository';
import { bookingRescheduledMail } from '../booking-lifecycle/bookings.emails';
import type { RefundRow } from '../order-payments/refunds.repository';
import { releaseHold } from '../sessions/holds.repository';
import { holdFreeSlot } from '../sessions/system-holds.repository';
import { cancel, closureMove } from '../booking-lifecycle/booking-change-transitions';
import type { Ctx } from '../booking-lifecycle/transition-guard';
import { latestOrder } from '../bookings/booking-changes.repository';
import { enqueueMail } from '../mail/outbox.repository';
import { sendRefund } from '../payments/refunds.service';
import { moneyOnOrder } from '../order-payments/money-left';
import { slotForMove } from '../support/support.repository';
import { closureOfferMail, closureRefundMail } from './closures.emails';
import {
  closureOfBooking,
  findClosure,
  lockClosureBooking,
  setOutcome,
  type ClosureBookingRow,
  type ClosureRow,
} from './closures.repository';
import { freeSessionsNear } from './closure-sessions.repository';
import { transactionWithRetry } from '../../db/retry-transaction';
import { insertCreditEntry } from '../credit/credit.repository';
import { creditExpiry } from '../credit/credit-expiry';

/**
 * What happens to one booking of a closure (decision 0055), always inside the transaction that
 * holds its closure_bookings row: the row's outcome is written with the change, so a booking is
 * remedied exactly once however many workers, restarts or taps reach it. Refunds are recorded in
 * that transaction and sent to Stripe after the commit (the refund's id is the idempotency key;
 * the refund job resends one a crash left pending).
 */
export type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'stripe' | 'log' | 'slotState'>;

export interface Step {
  refund: RefundRow | undefined;
  /** Sessions whose state changed, for this process's availability answers. */
  changed: string[];
}

const manager = (closure: Pick<ClosureRow, 'createdBy'>): Actor => ({
  kind: 'staff',
  id: closure.createdBy,
  email: null,
});
const words = (c: { reason: string; message: string }) => ({ reason: c.reason, message: c.message });

/**
 * Cancels the booking with everything paid refunded and tells the family. As credit (the credit
 * remedy), the card's part becomes account credit and a bonus of CLOSURE_CREDIT_BONUS_PERCENT of all
 * that was left is added; what gift vouchers or credit paid goes back to them as with any refund.
 */
async function refundInTx(
  deps: Deps,
  ctx: Ctx,
  booking: BookingRow,
  closure: { reason: string; message: string },
  asCredit = false,
): Promise<RefundRow | undefined> {
  const order = await latestOrder(ctx.tx, booking.id);
  const left = order?.paidAt ? (await moneyOnOrder(ctx.tx, order.id)).leftCents : 0;
  const refund = await cancel(ctx, booking, order, {
    reason: 'session_closed',
    refundCents: left,
    refundReason: 'session_closed',
    transition: 'closureCancel',
    ...(asCredit ? { refundTo: 'credit' as const, creditReason: 'closure_refund' as const } : {}),
  });
  const bonusCents = asCredit ? Math.round((left * deps.config.CLOSURE_CREDIT_BONUS_PERCENT) / 100) : 0;
  if (bonusCents > 0 && order)
    await insertCreditEntry(ctx.tx, {
      userId: booking.userId,
      cents: bonusCents,
      reason: 'closure_bonus',
      bookingId: booking.id,
      orderId: order.id,
      refundId: null,
      expiresAt: creditExpiry(ctx.now),
      at: ctx.now,
    });
  await enqueueMail(
    ctx.tx,
    closureRefundMail(
      await bookingDetails(ctx.tx, booking.id),
      words(closure),
      deps.config.BRAND_NAME,
      deps.config.PUBLIC_URL,
      left,
      asCredit && left > 0 ? { bonusCents } : null,
    ),
  );
  return refund;
}

/** A booking nobody can remedy any more (cancelled or checked in meanwhile): said so, nothing changed. */
function gone(booking: BookingRow): string | null {
  if (booking.status === 'cancelled') return 'The booking was already cancelled.';
  if (booking.checkedInAt) return 'The family was already checked in.';
  return null;
}

/** The closures job's step for one claimed row. */
export async function remedyOne(deps: Deps, tx: Tx, row: ClosureBookingRow, closure: ClosureRow): Promise<Step> {
  const now = deps.clock.now();
  const booking = await lockBooking(tx, row.bookingId);
  const ctx: Ctx = { tx, now, log: deps.log, actor: manager(closure), reason: closure.reason };
  const skip = gone(booking);
  if (skip) {
    await setOutcome(tx, row.id, now, { outcome: 'failed', detail: skip });
    return { refund: undefined, changed: [] };
  }
  if (closure.remedy === 'offer_move' && booking.status === 'completed') {
    const offered = await offerMove(deps, ctx, row, booking, closure);
    if (offered) return { refund: undefined, changed: [offered] };
  }
  const asCredit = closure.remedy === 'credit' && booking.status === 'completed';
  const refund = await refundInTx(deps, ctx, booking, closure, asCredit);
  const detail =
    closure.remedy === 'offer_move' && booking.status === 'completed'
      ? 'No free session of the same type was left to offer: refunded in full.'
      : asCredit
        ? `Cancelled; all that was paid is account credit, with a ${deps.config.CLOSURE_CREDIT_BONUS_PERCENT}% bonus.`
        : 'Cancelled and refunded in full.';
  await setOutcome(tx, row.id, now, { outcome: 'refunded', detail });
  return { refund, changed: [booking.slotId] };
}

/**
 * Holds the nearest free session of the same type for the family (another location only if none); null when none is
 * left.
 */
async function offerMove(
  deps: Deps,
  ctx: Ctx,
  row: ClosureBookingRow,
  booking: BookingRow,
  closure: ClosureRow,
): Promise<string | null> {
  const near = await slotStart(ctx.tx, booking.slotId);
  // The family gets at least the lead time to answer, and the lead time again to get there.
  const lead = leadCutoffOf(deps.config, ctx.now).getTime() - ctx.now.getTime();
  const leadCutoff = new Date(ctx.now.getTime() + 2 * lead);
  const [target] = await freeSessionsNear(ctx.tx, {
    locationId: closure.locationId,
    slotTypeIds: [booking.slotTypeId],
    near,
    now: ctx.now,
    leadCutoff,
    limit: 1,
    lock: true,
  });
  if (!target) return null;
  const expiresAt = new Date(
    Math.min(ctx.now.getTime() + deps.config.CLOSURE_OFFER_HOURS * 3_600_000, target.startAt.getTime() - lead),
  );
  await holdFreeSlot(
    ctx.tx,
    { slotId: target.slotId, reservationId: row.id, expiresAt, action: 'offerClosureMove', bookingId: booking.id },
    { actor: ctx.actor, at: ctx.now, reason: ctx.reason },
  );
  const where = target.locationId === closure.locationId ? '' : ` at ${target.locationName}`;
  const detail =
    `Offered ${formatSessionTime(target.startAt, target.timezone)}${where}, held until ` +
    `${formatSessionTime(expiresAt, target.timezone)}.`;
  await setOutcome(ctx.tx, row.id, ctx.now, {
    outcome: 'move_offered',
    detail,
    offerSlotId: target.slotId,
    offerExpiresAt: expiresAt,
  });
  // The refund it offers is what is left on the order, not the price: part may be refunded already (issue 53).
  const order = await latestOrder(ctx.tx, booking.id);
  const left = order?.paidAt ? (await moneyOnOrder(ctx.tx, order.id)).leftCents : 0;
  const details = await bookingDetails(ctx.tx, booking.id);
  const offer = {
    startAt: target.startAt,
    locationName: target.locationName,
    timezone: target.timezone,
    expiresAt,
    refundCents: left,
  };
  await enqueueMail(
    ctx.tx,
    closureOfferMail(details, words(closure), offer, deps.config.BRAND_NAME, deps.config.PUBLIC_URL),
  );
  return target.slotId;
}

export type Answer = 'accept' | 'refund' | 'expire';

/**
 * The family's answer to an offer (accept, refund) or its lapse (the offers job): one locked row,
 * so a tap racing the expiry, or two taps, change the booking once. Family answers need the
 * family's own booking (404 otherwise) and an open offer (409 NO_CLOSURE_OFFER).
 */
export async function answerOffer(
  deps: Deps,
  bookingId: string,
  answer: Answer,
  userId: string | null,
): Promise<Step | null> {
  const step = await transactionWithRetry(deps.db, async (tx): Promise<Step | null> => {
    const now = deps.clock.now();
    const booking = (await lockBooking(tx, bookingId)) as BookingRow | undefined;
    if (userId && (!booking || booking.userId !== userId)) throw notFound('That booking');
    const found = booking && (await closureOfBooking(tx, bookingId));
    const row = found && (await lockClosureBooking(tx, found.id));
    const open =
      row &&
      row.outcome === 'move_offered' &&
      row.offerExpiresAt &&
      (answer === 'expire' ? row.offerExpiresAt <= now : row.offerExpiresAt > now);
    if (!open || !booking || !found) {
      if (userId) throw errors.noClosureOffer();
      return null;
    }
    const ctx: Ctx = {
      tx,
      now,
      log: deps.log,
      actor: userId ? familyActor(userId) : manager((await findClosure(tx, row.closureId))!),
      reason: found.reason,
    };
    if (answer === 'accept') {
      const target = await slotForMove(tx, row.offerSlotId!);
      if (!target || !(await closureMove(ctx, booking, target, row.id))) throw errors.noClosureOffer();
      const previous = await slotStart(tx, booking.slotId);
      await setOutcome(tx, row.id, now, { outcome: 'moved', detail: 'The family accepted the new session.' });
      await enqueueMail(
        tx,
        bookingRescheduledMail(
          await bookingDetails(tx, booking.id),
          deps.config.BRAND_NAME,
          deps.config.PUBLIC_URL,
          previous,
          now,
          true,
        ),
      );
      return { refund: undefined, changed: [booking.slotId, target.id] };
    }
    await releaseHold(
      tx,
      { reservationId: row.id, action: 'endClosureOffer', bookingId: booking.id },
      { actor: ctx.actor, at: now, reason: ctx.reason },
    );
    const refund = await refundInTx(deps, ctx, booking, found);
    await setOutcome(tx, row.id, now, {
      outcome: 'refunded',
      detail:
        answer === 'refund'
          ? 'The family chose the refund.'
          : `The offer was not answered in ${deps.config.CLOSURE_OFFER_HOURS} hours: refunded in full.`,
    });
    return { refund, changed: [booking.slotId, row.offerSlotId!] };
  });
  if (step) await settle(deps, step);
  return step;
}

/** After the commit: the refund to Stripe, the sessions' new state to this process's answers. */
export async function settle(deps: Deps, step: Step): Promise<void> {
  if (step.changed.length) deps.slotState.changed({ freed: step.changed });
  if (step.refund?.status === 'pending') await sendRefund(deps, step.refund.id);
}
