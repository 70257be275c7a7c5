import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import type { Tx } from '../../db/client';
import { bookingConfirmedMail, paymentFailedMail, slotLostRefundMail } from '../bookings/bookings.emails';
import { enqueueMail } from '../mail/outbox.repository';
import {
  bookingDetails,
  lockBooking,
  lockOrder,
  lockOrderByIntent,
  recordEvent,
  releaseSlotHoldOf,
  setBooking,
  setOrder,
  takeSlotForBooking,
} from './payments.repository';
import { insertRefund, pendingRefundsOfOrder, syncOrderRefunded } from './refunds.repository';
import { sendRefund } from './refunds.service';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'stripe' | 'log'>;

async function orderFor(tx: Tx, intent: { id: string; metadata?: Stripe.Metadata | null }) {
  return (await lockOrderByIntent(tx, intent.id)) ?? (intent.metadata?.orderId ? await lockOrder(tx, intent.metadata.orderId) : undefined);
}

/**
 * Applies one Stripe event. Each handler decides from the order's current state, not from the
 * event alone, so duplicates and any arrival order are harmless; the event id is recorded in the
 * same transaction. Follow-up calls to Stripe (a refund) are derived from state afterwards, so a
 * redelivery after a failed call completes the work.
 */
export async function handleStripeEvent(deps: Deps, event: Stripe.Event): Promise<void> {
  switch (event.type) {
    case 'payment_intent.succeeded':
      return onSucceeded(deps, event, event.data.object);
    case 'payment_intent.payment_failed':
      return onFailed(deps, event, event.data.object);
    case 'payment_intent.canceled':
      return onCanceled(deps, event, event.data.object);
    case 'charge.refunded':
      return onRefunded(deps, event, event.data.object);
    default:
      await deps.db.transaction((tx) => recordEvent(tx, event.id, event.type));
  }
}

async function onSucceeded(deps: Deps, event: Stripe.Event, intent: Stripe.PaymentIntent): Promise<void> {
  const now = deps.clock.now();
  const orderId = await deps.db.transaction(async (tx) => {
    const fresh = await recordEvent(tx, event.id, event.type);
    const order = await orderFor(tx, intent);
    if (!order) return null;
    if (!fresh || order.status === 'paid' || order.status === 'refunded') return order.id;
    const booking = await lockBooking(tx, order.bookingId);
    await setOrder(tx, order.id, { status: 'paid', paidAt: now, paymentIntentId: intent.id });
    const details = await bookingDetails(tx, booking.id);
    // A booking cancelled only because its hold lapsed may still be confirmed; one the customer cancelled may not.
    const revivable = booking.status !== 'cancelled' || booking.cancelReason === 'hold_expired';
    if (revivable && (await takeSlotForBooking(tx, booking, now))) {
      await setBooking(tx, booking.id, { status: 'completed', confirmedAt: now, cancelledAt: null, cancelReason: null, updatedAt: now });
      await enqueueMail(tx, bookingConfirmedMail({ ...details, booking: { ...details.booking, status: 'completed' } }, deps.config.BRAND_NAME, deps.config.PUBLIC_URL, now));
    } else {
      // Paid after the hold lapsed and another family booked the session, or after cancelling: refund in full.
      if (revivable) await setBooking(tx, booking.id, { status: 'cancelled', cancelledAt: now, cancelReason: 'session_taken_before_payment', updatedAt: now });
      await insertRefund(tx, { orderId: order.id, bookingId: booking.id, amountCents: order.amountCents, reason: 'session_taken_before_payment' });
      if (revivable) await enqueueMail(tx, slotLostRefundMail(details, deps.config.BRAND_NAME, deps.config.PUBLIC_URL));
    }
    return order.id;
  });
  if (orderId) await settleLatePaymentRefund(deps, orderId);
}

/** Sends the refunds still owed on an order (after a slot was lost, or a redelivery of that event). */
export async function settleLatePaymentRefund(deps: Deps, orderId: string): Promise<void> {
  for (const refund of await pendingRefundsOfOrder(deps.db, orderId)) await sendRefund(deps, refund.id);
}

async function onFailed(deps: Deps, event: Stripe.Event, intent: Stripe.PaymentIntent): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    if (!(await recordEvent(tx, event.id, event.type))) return;
    const order = await orderFor(tx, intent);
    // A failure reported after a success (out of order) changes nothing.
    if (!order || order.status === 'paid' || order.status === 'refunded') return;
    const booking = await lockBooking(tx, order.bookingId);
    await setOrder(tx, order.id, { status: 'failed' });
    if (booking.status === 'payment_pending') {
      await setBooking(tx, booking.id, { status: 'payment_failed', updatedAt: now });
      await enqueueMail(tx, paymentFailedMail(await bookingDetails(tx, booking.id), deps.config.BRAND_NAME, deps.config.PUBLIC_URL));
    }
  });
}

async function onCanceled(deps: Deps, event: Stripe.Event, intent: Stripe.PaymentIntent): Promise<void> {
  const now = deps.clock.now();
  await deps.db.transaction(async (tx) => {
    if (!(await recordEvent(tx, event.id, event.type))) return;
    const order = await orderFor(tx, intent);
    if (!order || order.status === 'paid' || order.status === 'refunded') return;
    const booking = await lockBooking(tx, order.bookingId);
    await setOrder(tx, order.id, { status: 'failed' });
    if (booking.status === 'payment_pending' || booking.status === 'payment_failed') {
      await setBooking(tx, booking.id, { status: 'cancelled', cancelledAt: now, cancelReason: 'payment_cancelled', updatedAt: now });
      await releaseSlotHoldOf(tx, booking);
    }
  });
}

async function onRefunded(deps: Deps, event: Stripe.Event, charge: Stripe.Charge): Promise<void> {
  const intentId = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
  if (!intentId) return;
  await deps.db.transaction(async (tx) => {
    if (!(await recordEvent(tx, event.id, event.type))) return;
    const order = await lockOrderByIntent(tx, intentId);
    if (order) await syncOrderRefunded(tx, order.id, deps.clock.now(), charge.amount_refunded);
  });
}
