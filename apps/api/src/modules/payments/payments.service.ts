import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import type { Tx } from '../../db/client';
import { bookingConfirmedMail } from '../booking-lifecycle/bookings.emails';
import { latePaymentRefundMail } from '../booking-lifecycle/late-payment.emails';
import { policyOf } from '../booking-lifecycle/booking-policy';
import { enqueueMail } from '../mail/outbox.repository';
import {
  bookingDetails,
  lockBooking,
  lockOrder,
  lockOrderByIntent,
} from '../booking-lifecycle/booking-rows.repository';
import { orderOfIntent, recordEvent } from './payments.repository';
import { cancelPayment, failPayment, recordPayment } from '../booking-lifecycle/payment-transitions';
import { failPhotoOrder, recordPhotoPayment } from '../booking-lifecycle/photo-order-transitions';
import { STRIPE } from '../audit-trail/audit-entries.repository';
import { canMove, stateOf } from '../booking-lifecycle/transition-table';
import { pendingRefundsOfOrder } from '../order-payments/refunds.repository';
import { recordStripeRefunded } from '../order-payments/payment-moves';
import { sendRefund } from './refunds.service';
import { transactionWithRetry } from '../../db/retry-transaction';
import { payments } from '../operations/metrics';
import { applyDisputeEvent, stageOrderDisputes } from '../disputes/disputes.service';
import { applyVoucherOutcome } from '../voucher-sales/voucher-sale';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'stripe' | 'log' | 'slotState'>;

/**
 * The intent's order, locked after its booking: booking then order is the order every other path
 * takes (a cancel, an account's deletion, support, closures). Locking the order first, this
 * webhook deadlocked with a deletion cancelling the same booking (issue 48).
 */
async function orderFor(tx: Tx, intent: { id: string; metadata?: Stripe.Metadata | null }) {
  const found =
    (await orderOfIntent(tx, intent.id)) ??
    (intent.metadata?.orderId ? await orderOfIntent(tx, null, intent.metadata.orderId) : undefined);
  if (!found) return undefined;
  await lockBooking(tx, found.bookingId);
  return (
    (await lockOrderByIntent(tx, intent.id)) ??
    (intent.metadata?.orderId ? await lockOrder(tx, intent.metadata.orderId) : undefined)
  );
}

/** What a PaymentIntent's outcome means for its order; `open` = nothing decided yet. */
export type IntentOutcome = 'succeeded' | 'failed' | 'canceled' | 'open';

/** The outcome a PaymentIntent's current state shows (what the reconciliation job reads from Stripe). */
export function outcomeOf(intent: Pick<Stripe.PaymentIntent, 'status' | 'last_payment_error'>): IntentOutcome {
  if (intent.status === 'succeeded') return 'succeeded';
  if (intent.status === 'canceled') return 'canceled';
  if (intent.status === 'requires_payment_method' && intent.last_payment_error) return 'failed';
  return 'open';
}

/** The Stripe event being applied, recorded in the same transaction; null when the state was read from Stripe. */
type EventRef = Pick<Stripe.Event, 'id' | 'type'> | null;

/**
 * Applies a PaymentIntent's outcome to its order and booking: the one function behind both the
 * webhook and the reconciliation job. Each branch decides from the order's current state, not
 * from the news alone, so duplicates, late webhooks after a reconciliation and any arrival order
 * are harmless. Follow-up calls to Stripe (a refund) are derived from state afterwards, so a
 * repeat after a failed call completes the work.
 */
export async function applyIntentOutcome(
  deps: Deps,
  outcome: IntentOutcome,
  intent: Stripe.PaymentIntent,
  event: EventRef = null,
): Promise<void> {
  // Counted as applied (a redelivered event counts again: a rate, not a ledger; decision 0088).
  if (outcome !== 'open') payments[outcome].inc();
  // A gift voucher's sale is no booking's order (decision 0112).
  if (intent.metadata?.voucherId) return applyVoucherOutcome(deps, outcome, intent, (tx) => firstTime(tx, event));
  switch (outcome) {
    case 'succeeded':
      return onSucceeded(deps, event, intent);
    case 'failed':
      return onFailed(deps, event, intent);
    case 'canceled':
      return onCanceled(deps, event, intent);
    case 'open':
      return;
  }
}

const EVENT_OUTCOMES: Partial<Record<Stripe.Event.Type, IntentOutcome>> = {
  'payment_intent.succeeded': 'succeeded',
  'payment_intent.payment_failed': 'failed',
  'payment_intent.canceled': 'canceled',
};

/** Applies one Stripe webhook event; the event id is recorded so each one is processed once. */
export async function handleStripeEvent(deps: Deps, event: Stripe.Event): Promise<void> {
  const outcome = EVENT_OUTCOMES[event.type];
  if (outcome) return applyIntentOutcome(deps, outcome, event.data.object as Stripe.PaymentIntent, event);
  if (event.type === 'charge.refunded') return onRefunded(deps, event, event.data.object);
  if (
    event.type === 'charge.dispute.created' ||
    event.type === 'charge.dispute.updated' ||
    event.type === 'charge.dispute.closed'
  )
    return applyDisputeEvent(deps, event.data.object, event.created, (tx) => recordEvent(tx, event.id, event.type));
  await transactionWithRetry(deps.db, (tx) => recordEvent(tx, event.id, event.type));
}

/** False when this event id was applied before (Stripe redelivers); true when there is no event. */
const firstTime = (tx: Tx, event: EventRef) => (event ? recordEvent(tx, event.id, event.type) : Promise.resolve(true));

async function onSucceeded(deps: Deps, event: EventRef, intent: Stripe.PaymentIntent): Promise<void> {
  const now = deps.clock.now();
  const orderId = await transactionWithRetry(deps.db, async (tx) => {
    const fresh = await firstTime(tx, event);
    const order = await orderFor(tx, intent);
    if (!order) return null;
    if (!fresh || order.status === 'paid' || order.status === 'refunded') return order.id;
    const booking = await lockBooking(tx, order.bookingId);
    // More photos bought from the gallery (decision 0065): they unlock, or the money goes back.
    if (order.kind === 'photos') {
      await recordPhotoPayment({ tx, now, log: deps.log, actor: STRIPE }, booking, order, intent.id);
      return order.id;
    }
    // A booking cancelled only because its hold lapsed may still be confirmed; one the customer
    // cancelled may not (transition-table.ts): its payment is refunded in full.
    const { outcome, refund } = await recordPayment(
      { tx, now, log: deps.log, actor: STRIPE },
      booking,
      order,
      intent.id,
    );
    const details = await bookingDetails(tx, booking.id);
    if (outcome === 'confirmed') {
      await enqueueMail(
        tx,
        bookingConfirmedMail(details, deps.config.BRAND_NAME, deps.config.PUBLIC_URL, now, policyOf(deps.config)),
      );
    } else if (outcome === 'session_lost' || outcome === 'parts_gone') {
      const cardCents = refund?.method === 'card' ? refund.amountCents : 0;
      await enqueueMail(
        tx,
        latePaymentRefundMail(details, deps.config.BRAND_NAME, deps.config.PUBLIC_URL, outcome, cardCents),
      );
    }
    return order.id;
  });
  if (orderId) {
    await settleLatePaymentRefund(deps, orderId);
    await stageOrderDisputes(deps, orderId);
  }
}

/** Sends the refunds still owed on an order (after a slot was lost, or a redelivery of that event). */
export async function settleLatePaymentRefund(deps: Deps, orderId: string): Promise<void> {
  for (const refund of await pendingRefundsOfOrder(deps.db, orderId)) await sendRefund(deps, refund.id);
}

async function onFailed(deps: Deps, event: EventRef, intent: Stripe.PaymentIntent): Promise<void> {
  const now = deps.clock.now();
  await transactionWithRetry(deps.db, async (tx) => {
    if (!(await firstTime(tx, event))) return;
    const order = await orderFor(tx, intent);
    // A failure reported after a success (out of order) changes nothing.
    if (!order || order.status === 'paid' || order.status === 'refunded') return;
    const booking = await lockBooking(tx, order.bookingId);
    if (order.kind === 'photos') return failPhotoOrder({ tx, now, log: deps.log, actor: STRIPE }, booking, order);
    // Reported after the checkout ended (lapsed or cancelled, its order already failed): old news.
    if (!canMove(stateOf(booking), 'failPayment')) return;
    // No e-mail while the family can still pay: "Payment not completed" goes once, when the checkout lapses
    // (unpaid-checkouts.service.ts).
    await failPayment({ tx, now, log: deps.log, actor: STRIPE }, booking, order);
  });
}

async function onCanceled(deps: Deps, event: EventRef, intent: Stripe.PaymentIntent): Promise<void> {
  const now = deps.clock.now();
  const freedSlotId = await transactionWithRetry(deps.db, async (tx) => {
    if (!(await firstTime(tx, event))) return null;
    const order = await orderFor(tx, intent);
    if (!order || order.status === 'paid' || order.status === 'refunded') return null;
    const booking = await lockBooking(tx, order.bookingId);
    if (order.kind === 'photos') {
      await failPhotoOrder({ tx, now, log: deps.log, actor: STRIPE }, booking, order);
      return null;
    }
    // The checkout already ended (lapsed or cancelled, its order already failed): old news.
    if (!canMove(stateOf(booking), 'cancelPayment')) return null;
    await cancelPayment({ tx, now, log: deps.log, actor: STRIPE }, booking, order);
    return booking.slotId;
  });
  if (freedSlotId) deps.slotState.changed({ freed: [freedSlotId] });
}

async function onRefunded(deps: Deps, event: Stripe.Event, charge: Stripe.Charge): Promise<void> {
  const intentId = typeof charge.payment_intent === 'string' ? charge.payment_intent : charge.payment_intent?.id;
  if (!intentId) return;
  await transactionWithRetry(deps.db, async (tx) => {
    if (!(await recordEvent(tx, event.id, event.type))) return;
    const order = await lockOrderByIntent(tx, intentId);
    if (order) await recordStripeRefunded(tx, order.id, charge.amount_refunded, deps.clock.now());
  });
}
