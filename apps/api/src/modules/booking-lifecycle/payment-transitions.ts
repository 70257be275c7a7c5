import { insertBookingRow, setBooking, type BookingRow, type NewBooking } from './booking-rows.repository';
import type { NewOrder, OrderRow } from '../order-payments/order-rows.repository';
import {
  abandonPayment,
  declinePayment,
  openPayment,
  payInStore,
  succeedPayment,
} from '../order-payments/payment-moves';
import { refundOrderParts } from '../order-payments/credit-moves';
import { lockReturnedParts, retakeParts } from '../order-payments/retake-parts';
import type { RefundRow } from '../order-payments/refunds.repository';
import { claimSlotForWalkIn, releaseSlotHoldOf, takeSlotForBooking } from '../sessions/slot-row.repository';
import { moveBookingHold } from '../sessions/system-holds.repository';
import { nextState, stateOf } from './transition-table';
import { audit, guard, type Ctx } from './transition-guard';

// A booking bought, by name (decision 0049): the online checkout and its payment's outcomes, and a
// walk-in sold and paid in store. Ctx, guard and audit: transition-guard.ts.

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

export type PaymentOutcome = 'confirmed' | 'session_lost' | 'parts_gone' | 'late';

/**
 * Stripe says the order is paid. The booking is confirmed if it awaits payment, its session is
 * still its own or free, and the credit and vouchers a lapse gave back can be taken again; paid
 * after the session went to another family (or those balances were spent), it is cancelled and
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
  const confirmable = nextState(state, 'confirmPaid') !== null;
  // Only a lapsed checkout had its credit and vouchers given back (retake-parts.ts).
  const retake = confirmable && state === 'lapsed' ? await lockReturnedParts(ctx, order) : undefined;
  if (confirmable && retake !== null && (await takeSlotForBooking(ctx.tx, booking, ctx.now))) {
    if (retake) await retakeParts(ctx, order, booking.id, retake);
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
  const cancelReason = retake === null ? 'balance_spent_before_payment' : 'session_taken_before_payment';
  if (lost)
    await setBooking(ctx.tx, booking.id, {
      status: 'cancelled',
      cancelledAt: ctx.now,
      cancelReason,
      updatedAt: ctx.now,
    });
  else guard(ctx, booking, 'refundLatePayment');
  // The whole order back: the card's part to the card, any credit it spent to credit.
  const refund = (await refundOrderParts(ctx, {
    order,
    bookingId: booking.id,
    cents: order.amountCents,
    reason: cancelReason,
    refundTo: 'card',
  }))!;
  await audit(ctx, lost ? 'loseSessionAfterPayment' : 'refundLatePayment', booking, {
    to: lost ? 'cancelled' : null,
    orderId: order.id,
    set: {
      ...(lost ? { status: 'cancelled', cancelReason } : {}),
      paidCents: order.amountCents,
      refundCents: refund.amountCents,
    },
  });
  return { outcome: !lost ? 'late' : retake === null ? 'parts_gone' : 'session_lost', refund };
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
