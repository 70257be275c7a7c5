import type { FastifyInstance } from 'fastify';
import { stripeOf } from '../../plugins/stripe';
import { findRefund, lockRefund, paymentIntentOfOrder, type RefundRow } from '../order-payments/refunds.repository';
import { recordFailedRefund, settleRefund } from '../order-payments/payment-moves';
import { transactionWithRetry } from '../../db/retry-transaction';
import { refunds } from '../operations/metrics';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'stripe' | 'log'>;

const MAX_ATTEMPTS = 10;

/**
 * Sends a recorded refund to Stripe. The refund's own id is the idempotency key, so sending it
 * again (a retry, a second process, a redelivered webhook) never refunds twice. Returns the row
 * as it stands afterwards; a failure leaves it pending for the refund job.
 */
export async function sendRefund(deps: Deps, refundId: string): Promise<RefundRow> {
  const refund = await findRefund(deps.db, refundId);
  if (!refund || refund.status !== 'pending') return refund!;
  try {
    const paymentIntent = await paymentIntentOfOrder(deps.db, refund.orderId);
    if (!paymentIntent) throw new Error('order has no PaymentIntent');
    const created = await stripeOf(deps).refunds.create(
      {
        payment_intent: paymentIntent,
        amount: refund.amountCents,
        metadata: { refundId: refund.id, orderId: refund.orderId, bookingId: refund.bookingId },
      },
      { idempotencyKey: `refund-${refund.id}` },
    );
    const settled = await transactionWithRetry(deps.db, async (tx) => {
      const now = deps.clock.now();
      await settleRefund(tx, (await lockRefund(tx, refund.id))!, created.id, now);
      return (await findRefund(tx, refund.id))!;
    });
    refunds.sent.inc();
    return settled;
  } catch (err) {
    deps.log.warn({ err, refundId }, 'refund not sent yet; the refund job will retry');
    const error = err instanceof Error ? err.message : String(err);
    const givenUp = refund.attempts + 1 >= MAX_ATTEMPTS;
    await transactionWithRetry(deps.db, (tx) => recordFailedRefund(tx, refund, error, givenUp, deps.clock.now()));
    refunds[givenUp ? 'failed' : 'retrying'].inc();
    return (await findRefund(deps.db, refund.id))!;
  }
}
