import type { FastifyBaseLogger } from 'fastify';
import type { Tx } from '../../db/client';
import { errors } from '../../lib/errors';
import { insertBookingRow, lockBooking, setBooking, type BookingRow, type NewBooking } from './booking-rows.repository';
import type { NewOrder, OrderRow } from '../order-payments/order-rows.repository';
import {
  abandonPayment,
  declinePayment,
  openPayment,
  payInStore,
  requestRefund,
  succeedPayment,
} from '../order-payments/payment-moves';
import type { BookingDetails as FamilyDetails } from '@kringle/contracts/booking-details';
import { insertAuditEntry, type Actor } from '../audit-trail/audit-entries.repository';
import { saveDetails } from './booking-details.repository';
import type { RefundRow } from '../order-payments/refunds.repository';
import {
  claimSlotForStaffMove,
  claimSlotForWalkIn,
  freeBookingSlot,
  releaseSlotHoldOf,
  takeHeldSlot,
  takeSlotForBooking,
} from '../sessions/slot-row.repository';
import { moveBookingHold } from '../sessions/system-holds.repository';
import { nextState, stateOf, type BookingState, type TransitionName } from './transition-table';

/**
 * Every change of a booking's, its order's and its session's state, by name (decision 0049). Each
 * runs inside the caller's transaction on rows the caller has locked, checks the move against
 * transition-table.ts and refuses an illegal one with ILLEGAL_TRANSITION and a log line, never
 * applying it. Services decide what to do (and say it by e-mail); only these write the state. The
 * order's payment and the refunds change through their own moves (order-payments/payment-moves.ts,
 * decision 0091), called from here and audited in the booking's entry.
 */
export interface Ctx {
  tx: Tx;
  now: Date;
  log: Pick<FastifyBaseLogger, 'error'>;
  /** Who asks for the change: written to the audit trail with it (decision 0051). */
  actor: Actor;
  /** Why, when a person says so (staff actions require it). */
  reason?: string;
}

type Facts = Pick<BookingRow, 'id' | 'status' | 'cancelReason' | 'checkedInAt' | 'noShowAt'>;

/** The state the move leads to; throws (and logs) when the table refuses it. */
export function guard(ctx: Pick<Ctx, 'log'>, booking: Facts | undefined, transition: TransitionName): BookingState {
  const from = stateOf(booking);
  const to = nextState(from, transition);
  if (to) return to;
  ctx.log.error({ bookingId: booking?.id, transition, from }, 'illegal booking transition refused');
  throw errors.illegalTransition();
}

type Snapshot = Partial<Pick<BookingRow, 'id' | 'status' | 'cancelReason' | 'checkedInAt' | 'noShowAt' | 'slotId'>>;

/**
 * The one audit hook (decision 0051): every transition below ends here, in the caller's
 * transaction, so a change and its entry commit or roll back together. `before` is the booking's
 * state and the old values of the fields the move changed; `after` the state and the new values.
 */
async function audit(
  ctx: Pick<Ctx, 'tx' | 'now' | 'actor' | 'reason'>,
  action: TransitionName,
  booking: Snapshot & { id: string },
  change: { to: BookingState | null; set?: Record<string, unknown>; orderId?: string | null },
): Promise<void> {
  const set = change.set ?? {};
  const from = booking.status ? stateOf(booking as Facts) : null;
  const old = Object.fromEntries(Object.keys(set).map((k) => [k, (booking as Record<string, unknown>)[k] ?? null]));
  await insertAuditEntry(ctx.tx, {
    at: ctx.now,
    actor: ctx.actor,
    action,
    bookingId: booking.id,
    orderId: change.orderId ?? null,
    reason: ctx.reason ?? null,
    before: { state: from, ...old },
    after: { state: change.to ?? from, ...set },
  });
}

/** A held session and its cart become a payment_pending booking and a pending order. */
export async function openCheckout(
  ctx: Ctx,
  booking: Omit<NewBooking, 'status' | 'source'>,
  order: Omit<NewOrder, 'bookingId' | 'status' | 'createdAt'>,
): Promise<{ booking: BookingRow; order: OrderRow }> {
  guard(ctx, undefined, 'openCheckout');
  const created = await insertBookingRow(ctx.tx, {
    ...booking,
    status: 'payment_pending',
    source: 'online',
    createdAt: ctx.now,
    updatedAt: ctx.now,
  });
  const createdOrder = await openPayment(ctx, { ...order, bookingId: created.id });
  await moveBookingHold(ctx.tx, booking.reservationId!, 'checkOut', ctx.now, created.id);
  await audit(
    ctx,
    'openCheckout',
    { id: created.id },
    {
      to: 'pending',
      orderId: createdOrder.id,
      set: { status: created.status, slotId: created.slotId, amountCents: createdOrder.amountCents },
    },
  );
  return { booking: created, order: createdOrder };
}

export type PaymentOutcome = 'confirmed' | 'session_lost' | 'late';

/**
 * Stripe says the order is paid. The booking is confirmed if it awaits payment and its session is
 * still its own or free; paid after the session went to another family, it is cancelled and
 * refunded in full; paid for a booking not awaiting payment, the money goes back.
 */
export async function recordPayment(
  ctx: Ctx,
  booking: BookingRow,
  order: OrderRow,
  paymentIntentId: string | null,
): Promise<{ outcome: PaymentOutcome; refund: RefundRow | null }> {
  await succeedPayment(ctx, order.id, paymentIntentId);
  const state = stateOf(booking);
  if (nextState(state, 'confirmPaid') && (await takeSlotForBooking(ctx.tx, booking, ctx.now))) {
    const to = guard(ctx, booking, 'confirmPaid');
    await setBooking(ctx.tx, booking.id, {
      status: 'completed',
      confirmedAt: ctx.now,
      cancelledAt: null,
      cancelReason: null,
      updatedAt: ctx.now,
    });
    await audit(ctx, 'confirmPaid', booking, {
      to,
      orderId: order.id,
      set: { status: 'completed', cancelReason: null, paidCents: order.amountCents },
    });
    return { outcome: 'confirmed', refund: null };
  }
  const lost = nextState(state, 'loseSessionAfterPayment') !== null;
  if (lost)
    await setBooking(ctx.tx, booking.id, {
      status: 'cancelled',
      cancelledAt: ctx.now,
      cancelReason: 'session_taken_before_payment',
      updatedAt: ctx.now,
    });
  else guard(ctx, booking, 'refundLatePayment');
  const refund = await requestRefund(ctx, {
    orderId: order.id,
    bookingId: booking.id,
    amountCents: order.amountCents,
    reason: 'session_taken_before_payment',
  });
  await audit(ctx, lost ? 'loseSessionAfterPayment' : 'refundLatePayment', booking, {
    to: lost ? 'cancelled' : null,
    orderId: order.id,
    set: {
      ...(lost ? { status: 'cancelled', cancelReason: 'session_taken_before_payment' } : {}),
      paidCents: order.amountCents,
      refundCents: refund.amountCents,
    },
  });
  return { outcome: lost ? 'session_lost' : 'late', refund };
}

/** A card declined: the family may try again while the hold lives. */
export async function failPayment(ctx: Ctx, booking: BookingRow, order: OrderRow): Promise<void> {
  const to = guard(ctx, booking, 'failPayment');
  await declinePayment(ctx, order.id);
  if (booking.status !== 'payment_failed')
    await setBooking(ctx.tx, booking.id, { status: 'payment_failed', updatedAt: ctx.now });
  await audit(ctx, 'failPayment', booking, { to, orderId: order.id, set: { status: 'payment_failed' } });
}

/** The PaymentIntent was cancelled at Stripe: the checkout ends and its session is let go. */
export async function cancelPayment(ctx: Ctx, booking: BookingRow, order: OrderRow): Promise<void> {
  const to = guard(ctx, booking, 'cancelPayment');
  await abandonPayment(ctx, order.id);
  await setBooking(ctx.tx, booking.id, {
    status: 'cancelled',
    cancelledAt: ctx.now,
    cancelReason: 'payment_cancelled',
    updatedAt: ctx.now,
  });
  await releaseSlotHoldOf(ctx.tx, booking);
  await audit(ctx, 'cancelPayment', booking, {
    to,
    orderId: order.id,
    set: { status: 'cancelled', cancelReason: 'payment_cancelled' },
  });
}

/** The checkout's hold ran out unpaid: cancelled (a payment may still revive it), its session let go. */
export async function lapseCheckout(
  ctx: Ctx,
  booking: BookingRow,
  orderId: string,
  reservationId: string,
): Promise<void> {
  const to = guard(ctx, booking, 'lapseCheckout');
  await setBooking(ctx.tx, booking.id, {
    status: 'cancelled',
    cancelledAt: ctx.now,
    cancelReason: 'hold_expired',
    updatedAt: ctx.now,
  });
  await abandonPayment(ctx, orderId);
  await moveBookingHold(ctx.tx, reservationId, 'lapseCheckout', ctx.now);
  await releaseSlotHoldOf(ctx.tx, booking);
  await audit(ctx, 'lapseCheckout', booking, {
    to,
    orderId,
    set: { status: 'cancelled', cancelReason: 'hold_expired' },
  });
}

/**
 * Cancels before the session: the session is free at once, an unpaid checkout ends with its hold
 * and order, and the refund (if any) is recorded to be sent to Stripe after the commit.
 */
export async function cancel(
  ctx: Ctx,
  booking: BookingRow,
  order: OrderRow | undefined,
  args: {
    reason: string;
    refundCents: number;
    refundReason: string;
    transition?: 'cancel' | 'staffCancel' | 'closureCancel';
  },
): Promise<RefundRow | undefined> {
  const name = args.transition ?? 'cancel';
  const to = guard(ctx, booking, name);
  const unpaid = booking.status === 'payment_pending' || booking.status === 'payment_failed';
  await setBooking(ctx.tx, booking.id, {
    status: 'cancelled',
    cancelledAt: ctx.now,
    cancelReason: args.reason,
    updatedAt: ctx.now,
  });
  await freeBookingSlot(ctx.tx, booking);
  if (unpaid && booking.reservationId) await moveBookingHold(ctx.tx, booking.reservationId, 'cancelCheckout', ctx.now);
  if (unpaid && order) await abandonPayment(ctx, order.id);
  const refunded = args.refundCents > 0 && order ? args.refundCents : 0;
  await audit(ctx, name, booking, {
    to,
    orderId: order?.id,
    set: { status: 'cancelled', cancelReason: args.reason, refundCents: refunded },
  });
  if (!refunded || !order) return undefined;
  return requestRefund(ctx, {
    orderId: order.id,
    bookingId: booking.id,
    amountCents: refunded,
    reason: args.refundReason,
  });
}

/** Moves a confirmed booking onto the session its hold owns; false (nothing changed) if the hold no longer owns it. */
export async function reschedule(
  ctx: Ctx,
  booking: BookingRow,
  target: { id: string; slotTypeId: string },
  reservationId: string,
): Promise<boolean> {
  const to = guard(ctx, booking, 'reschedule');
  await freeBookingSlot(ctx.tx, { id: booking.id, slotId: booking.slotId, reservationId: null });
  if (!(await takeHeldSlot(ctx.tx, { bookingId: booking.id, slotId: target.id, reservationId, now: ctx.now })))
    return false;
  await setBooking(ctx.tx, booking.id, {
    slotId: target.id,
    slotTypeId: target.slotTypeId,
    rescheduleCount: booking.rescheduleCount + 1,
    reminderSentAt: null,
    updatedAt: ctx.now,
  });
  await moveBookingHold(ctx.tx, reservationId, 'checkOut', ctx.now);
  await audit(ctx, 'reschedule', booking, { to, set: { slotId: target.id } });
  return true;
}

/**
 * A closure's offer accepted (decision 0055): the booking moves onto the session the closure holds
 * for it (the hold's id is the offer's); false (nothing changed) when the hold no longer owns it.
 * Like a staff move, the family's reschedule count is left alone.
 */
export async function closureMove(
  ctx: Ctx,
  booking: BookingRow,
  target: { id: string; slotTypeId: string; locationId: string },
  offerId: string,
): Promise<boolean> {
  const to = guard(ctx, booking, 'closureMove');
  if (!(await takeHeldSlot(ctx.tx, { bookingId: booking.id, slotId: target.id, reservationId: offerId, now: ctx.now })))
    return false;
  await freeBookingSlot(ctx.tx, { id: booking.id, slotId: booking.slotId, reservationId: null });
  await setBooking(ctx.tx, booking.id, {
    slotId: target.id,
    slotTypeId: target.slotTypeId,
    locationId: target.locationId,
    reminderSentAt: null,
    updatedAt: ctx.now,
  });
  await audit(ctx, 'closureMove', booking, { to, set: { slotId: target.id, locationId: target.locationId } });
  return true;
}

/**
 * The brand's team moves a confirmed booking for the family (decision 0051): past the family's
 * cutoff and reschedule limit, never past capacity. The new session is taken with the online
 * hold's own claim (free, ahead, on sale, nobody waiting for its day), so of a staff move and any
 * number of families racing for it exactly one gets it; false (nothing changed) when it is taken.
 * The family's reschedule count is left alone: the move was the brand's, not theirs.
 */
export async function staffReschedule(
  ctx: Ctx,
  booking: BookingRow,
  target: { id: string; slotTypeId: string },
): Promise<boolean> {
  const to = guard(ctx, booking, 'staffReschedule');
  if (!(await claimSlotForStaffMove(ctx.tx, target.id, booking.id, ctx.now))) return false;
  await freeBookingSlot(ctx.tx, { id: booking.id, slotId: booking.slotId, reservationId: null });
  await setBooking(ctx.tx, booking.id, {
    slotId: target.id,
    slotTypeId: target.slotTypeId,
    reminderSentAt: null,
    updatedAt: ctx.now,
  });
  await audit(ctx, 'staffReschedule', booking, { to, set: { slotId: target.id } });
  return true;
}

/**
 * A partial refund of a paid order by the brand's team. The caller has locked the order and
 * checked the amount against what is left (refunds pending or sent count as gone); the refund is
 * sent to Stripe after the commit.
 */
export async function refundPart(
  ctx: Ctx,
  booking: BookingRow,
  order: OrderRow,
  amountCents: number,
  refundedBefore: number,
): Promise<RefundRow> {
  const to = guard(ctx, booking, 'refundPart');
  const refund = await requestRefund(ctx, {
    orderId: order.id,
    bookingId: booking.id,
    amountCents,
    reason: 'staff_refund',
  });
  await insertAuditEntry(ctx.tx, {
    at: ctx.now,
    actor: ctx.actor,
    action: 'refundPart',
    bookingId: booking.id,
    orderId: order.id,
    reason: ctx.reason ?? null,
    before: { state: to, refundedCents: refundedBefore },
    after: { state: to, refundedCents: refundedBefore + amountCents, refundCents: amountCents },
  });
  return refund;
}

/**
 * The brand's team changes who is coming for the family (support desk); false when the session
 * began or the booking was cancelled meanwhile. Only the head count goes into the trail: children's
 * names, ages and needs are deleted after the season, the trail is kept.
 */
export async function staffEditDetails(ctx: Ctx, booking: BookingRow, details: FamilyDetails): Promise<boolean> {
  const to = guard(ctx, booking, 'staffEditDetails');
  if (!(await saveDetails(ctx.tx, { bookingId: booking.id, userId: booking.userId, details, now: ctx.now })))
    return false;
  const people = (d: FamilyDetails | null) => (d ? d.children.length + d.adults : null);
  await insertAuditEntry(ctx.tx, {
    at: ctx.now,
    actor: ctx.actor,
    action: 'staffEditDetails',
    bookingId: booking.id,
    orderId: null,
    reason: ctx.reason ?? null,
    before: { state: to, people: people(booking.details) },
    after: { state: to, people: people(details) },
  });
  return true;
}

/** A walk-in at the set takes the session (false: lost the race) and is booked, paid in store. */
export async function sellWalkIn(
  ctx: Ctx,
  booking: Omit<NewBooking, 'status' | 'source'> & { id: string },
  order: Omit<NewOrder, 'bookingId' | 'status' | 'createdAt'>,
): Promise<boolean> {
  guard(ctx, undefined, 'sellWalkIn');
  if (!(await claimSlotForWalkIn(ctx.tx, booking.slotId, booking.id, ctx.now))) return false;
  await insertBookingRow(ctx.tx, {
    ...booking,
    status: 'completed',
    source: 'walkin',
    createdAt: ctx.now,
    updatedAt: ctx.now,
    confirmedAt: ctx.now,
  });
  const created = await payInStore(ctx, { ...order, bookingId: booking.id });
  await audit(
    ctx,
    'sellWalkIn',
    { id: booking.id },
    {
      to: 'confirmed',
      orderId: created.id,
      set: { status: 'completed', slotId: booking.slotId, amountCents: created.amountCents },
    },
  );
  return true;
}

/**
 * Checks a family in (clearing a no-show: it turned up late). The UPDATE's own condition is the
 * table's from-states (confirmed or no-show), so two devices scanning one code at once record one
 * check-in: PostgreSQL re-checks it after the first writer's lock. False when nothing moved.
 */
export async function checkIn(ctx: Omit<Ctx, 'log'>, bookingId: string): Promise<boolean> {
  // Locked first, so the entry says the state it came from (confirmed or no-show, issue 53 item 9).
  const before = await lockBooking(ctx.tx, bookingId);
  const moved = await setBooking(
    ctx.tx,
    bookingId,
    { checkedInAt: ctx.now, noShowAt: null, updatedAt: ctx.now },
    { status: 'completed', checkedInAt: null },
  );
  if (moved)
    await audit(ctx, 'checkIn', before ? { ...before, checkedInAt: null } : { id: bookingId, checkedInAt: null }, {
      to: 'checked_in',
      set: { checkedInAt: ctx.now },
    });
  return moved;
}

/** Attendance moves on a booking the caller has locked. */
export async function markNoShow(ctx: Ctx, booking: Facts): Promise<void> {
  const to = guard(ctx, booking, 'markNoShow');
  await setBooking(ctx.tx, booking.id, { noShowAt: ctx.now, updatedAt: ctx.now });
  await audit(ctx, 'markNoShow', booking, { to, set: { noShowAt: ctx.now } });
}

export async function undoCheckIn(ctx: Ctx, booking: Facts): Promise<void> {
  const to = guard(ctx, booking, 'undoCheckIn');
  await setBooking(ctx.tx, booking.id, { checkedInAt: null, updatedAt: ctx.now });
  await audit(ctx, 'undoCheckIn', booking, { to, set: { checkedInAt: null } });
}

export async function undoNoShow(ctx: Ctx, booking: Facts): Promise<void> {
  const to = guard(ctx, booking, 'undoNoShow');
  await setBooking(ctx.tx, booking.id, { noShowAt: null, updatedAt: ctx.now });
  await audit(ctx, 'undoNoShow', booking, { to, set: { noShowAt: null } });
}
