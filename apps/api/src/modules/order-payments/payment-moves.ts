import type { FastifyBaseLogger } from 'fastify';
import type { Tx } from '../../db/client';
import { errors } from '../../lib/errors';
import type { CreditReason } from '@kringle/contracts/credit';
import { insertAuditEntry, STRIPE, SYSTEM, type Actor } from '../audit-trail/audit-entries.repository';
import { creditFromRefunds, insertCreditEntry, lockCredit } from '../credit/credit.repository';
import { insertOrderRow, setOrderIf, type NewOrder, type OrderRow } from './order-rows.repository';
import { PAYMENT_MOVES, type PaymentMoveName } from './payment-table';
import {
  insertRefund,
  markRefundSucceeded,
  reopenCreditRefundToCard,
  recordRefundAttempt,
  syncOrderRefunded,
  type RefundRow,
} from './refunds.repository';

/**
 * An order's payment and its refunds, by name (decision 0091): the one writer of an order's
 * payment state and of a refund's state. Each runs in the caller's transaction, on rows the caller
 * locked (booking, then order), and checks payment-table.ts in the write itself: an order no longer
 * in a state the move starts from is refused with ILLEGAL_TRANSITION and one error log line.
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

/** The intent cancelled at Stripe, the checkout lapsed or the unpaid booking cancelled. */
export async function abandonPayment(ctx: PaymentCtx, orderId: string): Promise<void> {
  await move(ctx, orderId, 'abandon', { status: 'failed' });
}

/** A refund decided: recorded now, sent to Stripe after the commit (payments/refunds.service.ts). */
export async function requestRefund(
  ctx: Pick<PaymentCtx, 'tx'>,
  refund: { orderId: string; bookingId: string; amountCents: number; reason: string },
): Promise<RefundRow> {
  return insertRefund(ctx.tx, refund);
}

/**
 * The family takes the refund as account credit (decision 0111): a refund like a card's, which the
 * reports and receipts count as one, settled now with its credit entry in the caller's transaction,
 * so no job ever sends it to Stripe. The entry's unique refund id makes a second settling fail.
 */
export async function refundToCredit(
  ctx: PaymentCtx & { actor: Actor },
  refund: { orderId: string; bookingId: string; userId: string; amountCents: number; reason: string },
  credit: { reason: CreditReason; expiresAt: Date },
): Promise<RefundRow> {
  const row = await insertRefund(ctx.tx, { ...refund, method: 'credit' });
  await markRefundSucceeded(ctx.tx, row.id, null, ctx.now);
  const order = await syncOrderRefunded(ctx.tx, refund.orderId, ctx.now);
  await insertCreditEntry(ctx.tx, {
    userId: refund.userId,
    cents: refund.amountCents,
    reason: credit.reason,
    bookingId: refund.bookingId,
    orderId: refund.orderId,
    refundId: row.id,
    expiresAt: credit.expiresAt,
    at: ctx.now,
  });
  await insertAuditEntry(ctx.tx, {
    at: ctx.now,
    actor: ctx.actor,
    action: 'refundToCredit',
    bookingId: refund.bookingId,
    orderId: refund.orderId,
    reason: null,
    before: orderFacts(order?.before),
    after: { refund: 'succeeded', refundCents: refund.amountCents, refundTo: 'credit', ...orderFacts(order?.after) },
  });
  return { ...row, status: 'succeeded', completedAt: ctx.now };
}

/**
 * Deleting an account with credit left refunds it to the card (API.md): each refund the family took
 * as credit becomes a card refund again, pending for the sender job, and leaves the balance with a
 * 'refunded_to_card' entry. Returns those refunds' ids, to send after the commit. (Nothing spends
 * credit yet; once a spend exists, only the unspent part may go back.)
 */
export async function creditBackToCard(ctx: PaymentCtx & { actor: Actor }, userId: string): Promise<string[]> {
  await lockCredit(ctx.tx, userId);
  const reopened: string[] = [];
  for (const entry of await creditFromRefunds(ctx.tx, userId)) {
    if (!(await reopenCreditRefundToCard(ctx.tx, entry.refundId!))) continue;
    await insertCreditEntry(ctx.tx, {
      userId,
      cents: -entry.cents,
      reason: 'refunded_to_card',
      bookingId: entry.bookingId,
      orderId: entry.orderId,
      refundId: null,
      expiresAt: entry.expiresAt,
      at: ctx.now,
    });
    await insertAuditEntry(ctx.tx, {
      at: ctx.now,
      actor: ctx.actor,
      action: 'creditBackToCard',
      bookingId: entry.bookingId,
      orderId: entry.orderId,
      reason: null,
      before: { refund: 'succeeded', refundTo: 'credit', refundCents: entry.cents },
      after: { refund: 'pending', refundTo: 'card', refundCents: entry.cents },
    });
    reopened.push(entry.refundId!);
  }
  return reopened;
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

type OrderFacts = { refundedCents: number; status: string } | undefined;
const orderFacts = (o: OrderFacts) => (o ? { refundedCents: o.refundedCents, orderStatus: o.status } : {});
const changed = (o: { before: OrderFacts; after: OrderFacts } | null) =>
  !!o && (o.before!.refundedCents !== o.after!.refundedCents || o.before!.status !== o.after!.status);
