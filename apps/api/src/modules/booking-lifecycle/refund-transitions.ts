import type { Tx } from '../../db/client';
import { insertAuditEntry, STRIPE, SYSTEM } from './audit.repository';
import { markRefundSucceeded, recordRefundAttempt, syncOrderRefunded, type RefundRow } from './refunds.repository';

/**
 * How a recorded refund settles (decision 0062): Stripe accepts it, Kringle gives up on it, or
 * Stripe reports a refunded total (charge.refunded, a refund made in the dashboard among them).
 * Each writes the refund and the order's refunded total and status, and one audit entry when
 * anything changed, in the caller's transaction (the booking's own refunds are recorded by the
 * transitions in transitions.ts, which write their entries).
 */

/** Stripe accepted the refund: it succeeded and the order's refunded total follows. */
export async function settleRefund(tx: Tx, refund: RefundRow, stripeRefundId: string, now: Date): Promise<void> {
  const settled = await markRefundSucceeded(tx, refund.id, stripeRefundId, now);
  const order = await syncOrderRefunded(tx, refund.orderId, now);
  if (!settled && !changed(order)) return;
  await insertAuditEntry(tx, {
    at: now,
    actor: STRIPE,
    action: 'settleRefund',
    bookingId: refund.bookingId,
    orderId: refund.orderId,
    reason: null,
    before: {
      refund: settled ? 'pending' : 'succeeded',
      refundCents: refund.amountCents,
      ...orderFacts(order?.before),
    },
    after: { refund: 'succeeded', refundCents: refund.amountCents, ...orderFacts(order?.after) },
  });
}

/** Stripe reports the charge's refunded total: the order follows if that is news. */
export async function recordStripeRefunded(tx: Tx, orderId: string, reportedCents: number, now: Date): Promise<void> {
  const order = await syncOrderRefunded(tx, orderId, now, reportedCents);
  if (!order || !changed(order)) return;
  await insertAuditEntry(tx, {
    at: now,
    actor: STRIPE,
    action: 'refundReported',
    bookingId: order.bookingId,
    orderId,
    reason: null,
    before: orderFacts(order.before),
    after: orderFacts(order.after),
  });
}

/**
 * Counts a failed attempt to send a refund; the last one gives up, marking it failed with its
 * entry, in one transaction.
 */
export async function recordFailedRefund(
  tx: Tx,
  refund: RefundRow,
  error: string,
  giveUp: boolean,
  now: Date,
): Promise<void> {
  if (!(await recordRefundAttempt(tx, refund.id, error, giveUp))) return;
  await insertAuditEntry(tx, {
    at: now,
    actor: SYSTEM,
    action: 'giveUpRefund',
    bookingId: refund.bookingId,
    orderId: refund.orderId,
    reason: null,
    before: { refund: 'pending', refundCents: refund.amountCents },
    after: { refund: 'failed', refundCents: refund.amountCents, error: error.slice(0, 200) },
  });
}

type OrderFacts = { refundedCents: number; status: string } | undefined;
const orderFacts = (o: OrderFacts) => (o ? { refundedCents: o.refundedCents, orderStatus: o.status } : {});
const changed = (o: { before: OrderFacts; after: OrderFacts } | null) =>
  !!o && (o.before!.refundedCents !== o.after!.refundedCents || o.before!.status !== o.after!.status);
