import type { BookingDetailsBody } from '@kringle/contracts/booking-details';
import type { SupportRefund, SupportRefundChoice } from '@kringle/contracts/support';
import type { FastifyInstance } from 'fastify';
import { checkDetailsInput, recordAccessConsent } from '../booking-lifecycle/details-input';
import { errors, notFound } from '../../lib/errors';
import { staffActor } from '../audit-trail/audit-entries.repository';
import { policyOf } from '../booking-lifecycle/booking-policy';
import {
  bookingDetails,
  findBooking,
  findOrder,
  lockBooking,
  lockOrder,
  slotStart,
  type BookingRow,
} from '../booking-lifecycle/booking-rows.repository';
import {
  bookingCancelledMail,
  bookingConfirmedMail,
  bookingRescheduledMail,
  partRefundMail,
} from '../booking-lifecycle/bookings.emails';
import type { RefundRow } from '../order-payments/refunds.repository';
import {
  cancel,
  refundPart,
  staffEditDetails,
  staffReschedule as moveTransition,
} from '../booking-lifecycle/booking-change-transitions';
import type { Ctx } from '../booking-lifecycle/transition-guard';
import { staffBookingView } from '../staff/staff.repository';
import type { AuthClaims } from '../accounts/id-tokens';
import { latestOrder } from '../bookings/booking-changes.repository';
import { enqueueMail } from '../mail/outbox.repository';
import { sendRefund } from '../payments/refunds.service';
import type { Tx } from '../../db/client';
import { slotForMove } from './support.repository';
import { moneyOnOrder, refundByPolicy } from '../order-payments/money-left';
import type { LocationCheck } from './support-desk.service';
import { transactionWithRetry } from '../../db/retry-transaction';

/**
 * The support desk's actions (issue 34, decision 0051): the brand's team acts for a family. Each
 * change is a named transition (so it is audited with the staff member and the reason), the family
 * is told by the usual e-mail saying the team made it, and money goes to Stripe after the commit.
 */
type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'stripe' | 'log' | 'slotState'>;

interface Acting {
  staff: AuthClaims;
  reason: string;
  assertLocation: LocationCheck;
}

const ctxOf = (deps: Deps, tx: Tx, a: Acting): Ctx => ({
  tx,
  now: deps.clock.now(),
  log: deps.log,
  actor: staffActor(a.staff),
  reason: a.reason,
});

async function lockedBooking(tx: Tx, id: string, a: Acting): Promise<BookingRow> {
  const booking = await lockBooking(tx, id);
  if (!booking) throw notFound('That booking');
  a.assertLocation(booking.locationId);
  return booking;
}

/** POST /staff/bookings/{id}/reschedule: past the family's cutoff and limit, never onto a taken session. */
export async function rescheduleForFamily(deps: Deps, id: string, slotId: string, a: Acting): Promise<void> {
  const freed = await transactionWithRetry(deps.db, async (tx) => {
    const booking = await lockedBooking(tx, id, a);
    const target = await slotForMove(tx, slotId);
    if (!target) throw notFound('That session');
    if (target.locationId !== booking.locationId) throw errors.differentLocation();
    if (target.id === booking.slotId) throw errors.slotUnavailable('The booking is already in that session.');
    const ctx = ctxOf(deps, tx, a);
    const previousStart = await slotStart(tx, booking.slotId);
    if (!(await moveTransition(ctx, booking, target))) throw errors.slotUnavailable();
    await enqueueMail(
      tx,
      bookingRescheduledMail(
        await bookingDetails(tx, booking.id),
        deps.config.BRAND_NAME,
        deps.config.PUBLIC_URL,
        previousStart,
        ctx.now,
        true,
      ),
    );
    return booking.slotId;
  });
  // The old session is free again: this process shows and offers it at once.
  deps.slotState.changed({ freed: [freed] });
}

/** POST /staff/bookings/{id}/cancel: with the policy's refund, all that is left, or none. */
export async function cancelForFamily(deps: Deps, id: string, choice: SupportRefundChoice, a: Acting): Promise<void> {
  const outcome = await transactionWithRetry(deps.db, async (tx) => {
    const booking = await lockedBooking(tx, id, a);
    if (booking.status === 'cancelled') throw errors.notCancellable('This booking is already cancelled.');
    const order = await latestOrder(tx, booking.id);
    const ctx = ctxOf(deps, tx, a);
    const paid = Boolean(order?.paidAt);
    const left = order && paid ? (await moneyOnOrder(tx, order.id)).leftCents : 0;
    const startAt = await slotStart(tx, booking.slotId);
    const byPolicy = refundByPolicy({ ...booking, startAt }, left, ctx.now, policyOf(deps.config));
    const refundCents = choice === 'full' ? left : choice === 'policy' ? Math.min(left, byPolicy) : 0;
    const refund = await cancel(ctx, booking, order, {
      reason: 'staff_cancelled',
      refundCents,
      refundReason: 'staff_cancelled',
      transition: 'staffCancel',
    });
    const details = await bookingDetails(tx, booking.id);
    const mail = bookingCancelledMail(
      { ...details, booking: { ...details.booking, status: booking.status } },
      deps.config.BRAND_NAME,
      deps.config.PUBLIC_URL,
      refundCents,
      policyOf(deps.config),
      true,
    );
    await enqueueMail(tx, mail);
    const unpaid = booking.status === 'payment_pending' || booking.status === 'payment_failed';
    return {
      refund,
      slotId: booking.slotId,
      intent: unpaid && order?.paymentIntentId ? { orderId: order.id, id: order.paymentIntentId } : null,
    };
  });
  deps.slotState.changed({ freed: [outcome.slotId] });
  if (outcome.refund?.status === 'pending') await sendRefund(deps, outcome.refund.id);
  // An unpaid checkout: its PaymentIntent is cancelled too, as the family's own cancel does (same key).
  if (outcome.intent && deps.stripe) {
    try {
      await deps.stripe.paymentIntents.cancel(
        outcome.intent.id,
        {},
        { idempotencyKey: `order-${outcome.intent.orderId}-cancel-intent` },
      );
    } catch (err) {
      // Paid in the meantime: the success webhook finds the booking cancelled and refunds it.
      deps.log.warn({ err, bookingId: id }, 'could not cancel the PaymentIntent of a booking cancelled by staff');
    }
  }
}

/**
 * POST /staff/orders/{id}/refunds. The booking and then the order are locked (the order a family
 * cancel also reaches through its booking), so two refunds at once run one after the other and the
 * second sees the first: never more than is left.
 */
export async function refundForFamily(
  deps: Deps,
  orderId: string,
  amountCents: number,
  a: Acting,
): Promise<SupportRefund> {
  const unlocked = await findOrder(deps.db, orderId);
  if (!unlocked) throw notFound('That order');
  const created: RefundRow = await transactionWithRetry(deps.db, async (tx) => {
    const booking = await lockedBooking(tx, unlocked.bookingId, a);
    const order = (await lockOrder(tx, orderId))!;
    if (!order.paidAt) throw errors.notPaid(booking.reference);
    const { leftCents: left, goneCents } = await moneyOnOrder(tx, order.id);
    if (amountCents > left) throw errors.refundTooLarge(left);
    const refund = await refundPart(ctxOf(deps, tx, a), booking, order, amountCents, goneCents);
    await enqueueMail(
      tx,
      partRefundMail(
        await bookingDetails(tx, booking.id),
        deps.config.BRAND_NAME,
        deps.config.PUBLIC_URL,
        amountCents,
        order.voucherCents + order.creditCents > 0,
      ),
    );
    return refund;
  });
  const sent = created.status === 'pending' ? await sendRefund(deps, created.id) : created;
  return {
    id: sent.id,
    orderId: sent.orderId,
    amountCents: sent.amountCents,
    status: sent.status,
    reason: sent.reason,
    createdAt: sent.createdAt.toISOString(),
  };
}

/**
 * PUT /staff/bookings/{id}/details: who is coming, by the family's own rules (the session type's
 * pets, the people per photo), until the session starts.
 */
export async function editDetailsForFamily(deps: Deps, id: string, body: BookingDetailsBody, a: Acting): Promise<void> {
  await transactionWithRetry(deps.db, async (tx) => {
    const booking = await lockedBooking(tx, id, a);
    const view = (await staffBookingView(tx, id))!;
    const now = deps.clock.now();
    if (booking.status === 'cancelled')
      throw errors.detailsLocked('This booking is cancelled, so its details can no longer change.');
    if (view.startAt <= now)
      throw errors.detailsLocked('The session has started, so who is coming can no longer change.');
    // The parent's consent, asked by the desk on the phone, for access needs (decision 0058).
    const { details, consented } = checkDetailsInput(
      body,
      { maxPeople: deps.config.MAX_PEOPLE_PER_PHOTO, allowsPets: view.allowsPets },
      ['body', 'details'],
    );
    if (!(await staffEditDetails(ctxOf(deps, tx, a), booking, details))) throw errors.detailsLocked();
    if (consented)
      await recordAccessConsent(tx, { userId: booking.userId, bookingId: booking.id, recordedBy: a.staff.userId, now });
  });
}

/** POST /staff/bookings/{id}/resend: the confirmation again, as it would be written now. */
export async function resendConfirmation(deps: Deps, id: string, assertLocation: LocationCheck): Promise<void> {
  const booking = await findBooking(deps.db, id);
  if (!booking) throw notFound('That booking');
  assertLocation(booking.locationId);
  if (booking.status !== 'completed') throw errors.bookingNotConfirmed(booking.reference);
  const details = await bookingDetails(deps.db, id);
  await enqueueMail(
    deps.db,
    bookingConfirmedMail(
      details,
      deps.config.BRAND_NAME,
      deps.config.PUBLIC_URL,
      deps.clock.now(),
      policyOf(deps.config),
    ),
  );
}
