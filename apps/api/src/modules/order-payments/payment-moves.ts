import type { FastifyBaseLogger } from 'fastify';
import type { Tx } from '../../db/client';
import { errors } from '../../lib/errors';
import { insertAuditEntry, STRIPE, SYSTEM } from '../audit-trail/audit-entries.repository';
import { returnSpentCredit } from './credit-moves';
import { returnVoucherParts } from '../vouchers/voucher-spending';
import { insertOrderRow, setOrderIf, type NewOrder, type OrderRow } from './order-rows.repository';
import { PAYMENT_MOVES, type PaymentMoveName } from './payment-table';
import {
  insertRefund,
  markRefundSucceeded,
  orderFacts,
  recordRefundAttempt,
  syncOrderRefunded,
  type OrderRefundState,
  type RefundRow,
} from './refunds.repository';

/**
 * An order's payment and its refunds, by name (decision 0091): with credit-moves.ts (account
 * credit, decision 0111), the one writer of an order's payment state and of a refund's state. Each
 * runs in the caller's transaction, on rows the caller locked (booking, then order), and checks
 * payment-table.ts in the write itself: an order no longer in a state the move starts from is refused
 * with ILLEGAL_TRANSITION and one error log line.
 *
 * A move made by a booking's or a photo order's transition (booking-lifecycle) is audited in that
 * transition's entry, which names the order and its amounts: one entry per change (decision 0062).
 * The refunds' settlements below stand alone and write their own.
 */
export interface PaymentCtx {
  tx: Tx;
  now: Date;
  log: Pick<FastifyBaseLogger, 'error'>;
}

/** Writes the order if the table lets `move` start from its status; refuses (and logs) when not. */
async function move(ctx: PaymentCtx, orderId: string, name: PaymentMoveName, values: Partial<NewOrder>) {
  const from = PAYMENT_MOVES[name].from.filter((s) => s !== 'new') as OrderRow['status'][];
  if (await setOrderIf(ctx.tx, orderId, from, values)) return;
  ctx.log.error({ orderId, move: name }, 'illegal payment move refused');
  throw errors.illegalTransition();
}

/** A new order awaiting its card payment (a checkout, more photos). */
export async function openPayment(ctx: PaymentCtx, order: Omit<NewOrder, 'status' | 'createdAt'>): Promise<OrderRow> {
  return insertOrderRow(ctx.tx, { ...order, status: 'pending', createdAt: ctx.now });
}

/** A new order paid at the counter (a walk-in). */
export async function payInStore(ctx: PaymentCtx, order: Omit<NewOrder, 'status' | 'createdAt'>): Promise<OrderRow> {
  return insertOrderRow(ctx.tx, { ...order, status: 'paid', createdAt: ctx.now, paidAt: ctx.now });
}

/**
 * Stripe says paid (or nothing was left for the card: no PaymentIntent, decision 0106). A paid
 * order needs no further look from the reconciliation job, from that moment.
 */
export async function succeedPayment(ctx: PaymentCtx, orderId: string, paymentIntentId: string | null): Promise<void> {
  await move(ctx, orderId, 'succeed', {
    status: 'paid',
    paidAt: ctx.now,
    reconcileAt: null,
    ...(paymentIntentId ? { paymentIntentId } : {}),
  });
}

/** A card declined: the order may be paid again. */
export async function declinePayment(ctx: PaymentCtx, orderId: string): Promise<void> {
  await move(ctx, orderId, 'decline', { status: 'failed' });
}

/**
 * The intent cancelled at Stripe, the checkout lapsed or the unpaid booking cancelled: credit and
 * vouchers spent go back.
 */
export async function abandonPayment(ctx: PaymentCtx, orderId: string): Promise<void> {
  await move(ctx, orderId, 'abandon', { status: 'failed' });
  await returnSpentCredit(ctx, orderId);
  await returnVoucherParts(ctx.tx, orderId, { now: ctx.now, bookingId: null });
}

/** A refund decided: recorded now, sent to Stripe after the commit (payments/refunds.service.ts). */
export async function requestRefund(
  ctx: Pick<PaymentCtx, 'tx'>,
  refund: { orderId: string; bookingId: string; amountCents: number; reason: string },
): Promise<RefundRow> {
  return insertRefund(ctx.tx, refund);
}

/*
 * How a requested refund settles (decision 0062): Stripe accepts it, Kringle gives up on it, or
 * Stripe reports a refunded total (charge.refunded, a refund made in the dashboard among them).
 * Each writes the refund and the order's refunded total and status, and one audit entry when
 * anything changed. These meet old news (a second process, a redelivered webhook): a refund no
 * longer pending is left as it is, quietly, as the webhooks do with the booking's table.
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

type OrderFacts = OrderRefundState | undefined;
const changed = (o: { before: OrderFacts; after: OrderFacts } | null) =>
  !!o && (o.before!.refundedCents !== o.after!.refundedCents || o.before!.status !== o.after!.status);
