import { lockBooking, setBooking, type BookingRow } from './booking-rows.repository';
import type { OrderRow } from '../order-payments/order-rows.repository';
import { abandonPayment } from '../order-payments/payment-moves';
import { refundOrderParts } from '../order-payments/credit-moves';
import type { RefundTo } from '@kringle/contracts/credit';
import type { BookingDetails as FamilyDetails } from '@kringle/contracts/booking-details';
import { insertAuditEntry } from '../audit-trail/audit-entries.repository';
import { saveDetails } from './booking-details.repository';
import type { RefundRow } from '../order-payments/refunds.repository';
import { claimSlotForStaffMove, freeBookingSlot, takeHeldSlot } from '../sessions/slot-row.repository';
import { moveBookingHold } from '../sessions/system-holds.repository';
import { audit, guard, type Ctx, type Facts } from './transition-guard';

// A booking changed after it was made, by name (decision 0049): cancelled, moved, refunded in part,
// its details edited, its attendance marked. Ctx, guard and audit: transition-guard.ts.

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
    /** Account credit instead of the card: settled now, nothing goes to Stripe (decision 0111). */
    refundTo?: RefundTo;
    /** A closure's credit remedy names its credit so (decision 0111). */
    creditReason?: 'cancel_refund' | 'closure_refund';
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
  return refundOrderParts(ctx, {
    order,
    bookingId: booking.id,
    cents: refunded,
    reason: args.refundReason,
    refundTo: args.refundTo ?? 'card',
    creditReason: args.creditReason,
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
  // Where the money came from: what credit or gift vouchers paid goes back to them first, the card
  // only its own part (Stripe refuses more than the card paid, and the refund would never settle).
  const refund = (await refundOrderParts(ctx, {
    order,
    bookingId: booking.id,
    cents: amountCents,
    reason: 'staff_refund',
    refundTo: 'card',
  }))!;
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
