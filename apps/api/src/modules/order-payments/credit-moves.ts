import type { RefundTo } from '@kringle/contracts/credit';
import { insertAuditEntry, type Actor } from '../audit-trail/audit-entries.repository';
import { creditFromCardRefunds, creditStillSpentOn, insertCreditEntry, lockCredit } from '../credit/credit.repository';
import { creditExpiry, settleExpiredCredit } from '../credit/credit-expiry';
import type { OrderRow } from './order-rows.repository';
import { refundVoucherPart } from './voucher-moves';
import type { PaymentCtx } from './payment-moves';
import {
  CREDIT_RETURNED,
  creditReturnedOf,
  VOUCHER_RETURNED,
  findRefund,
  insertRefund,
  markRefundSucceeded,
  orderFacts,
  reopenCreditRefundToCard,
  shrinkCreditRefund,
  syncOrderRefunded,
  type RefundRow,
} from './refunds.repository';

/*
 * Account credit's side of an order (decision 0111). An order's amountCents is its whole total;
 * creditCents of it was paid from the family's credit at checkout, the card paying the rest. Money
 * goes back where it came from: the credit part to credit, the card part to the card (or to
 * credit, when the family asks). Refunds to credit are refund rows of method 'credit', settled at
 * once with their ledger entry, so receipts and reports count them as any refund.
 */
type Ctx = PaymentCtx & { actor: Actor };

interface RefundAsked {
  order: Pick<OrderRow, 'id' | 'userId' | 'creditCents' | 'voucherCents'>;
  bookingId: string;
  cents: number;
  reason: string;
  refundTo: RefundTo;
  /** The ledger's reason for the card's part taken as credit: a family's cancel (default) or a closure's remedy. */
  creditReason?: 'cancel_refund' | 'closure_refund';
}

/**
 * Refunds `cents` of a paid order: the credit it spent first (back to credit), then what gift
 * vouchers paid (back on them), then the card's part, to the card (pending, sent after the commit)
 * or as credit. Returns the card's refund when there is one (the caller sends it), else the credit's,
 * else the vouchers'.
 */
export async function refundOrderParts(ctx: Ctx, asked: RefundAsked): Promise<RefundRow | undefined> {
  const { order, bookingId } = asked;
  const creditBack = Math.min(asked.cents, order.creditCents - (await creditReturnedOf(ctx.tx, order.id)));
  const vouchers = await refundVoucherPart(ctx, order, bookingId, asked.cents - creditBack);
  const voucher = vouchers.refund;
  const cardBack = asked.cents - creditBack - (voucher?.amountCents ?? 0) - vouchers.toCreditCents;
  let credit: RefundRow | undefined;
  if (creditBack > 0) {
    // A lapse may have given the credit back already (then paid late): the refund squares the order alone.
    const spent = (await creditStillSpentOn(ctx.tx, order.id))?.cents ?? 0;
    credit = await settleToCredit(
      ctx,
      { order, bookingId, cents: creditBack, reason: CREDIT_RETURNED },
      {
        cents: Math.min(creditBack, spent),
        reason: 'returned',
        expiresAt: null,
      },
    );
  }
  // What a voucher expired or cancelled since paid comes back as credit: three years more, not lost.
  if (vouchers.toCreditCents > 0)
    credit = await settleToCredit(
      ctx,
      { order, bookingId, cents: vouchers.toCreditCents, reason: VOUCHER_RETURNED },
      { cents: vouchers.toCreditCents, reason: 'voucher_refund', expiresAt: creditExpiry(ctx.now) },
    );
  if (cardBack === 0) return credit ?? voucher;
  if (asked.refundTo === 'credit')
    return settleToCredit(
      ctx,
      { order, bookingId, cents: cardBack, reason: asked.reason },
      {
        cents: cardBack,
        reason: asked.creditReason ?? 'cancel_refund',
        expiresAt: creditExpiry(ctx.now),
      },
    );
  return insertRefund(ctx.tx, { orderId: order.id, bookingId, amountCents: cardBack, reason: asked.reason });
}

/** A refund row of method 'credit', settled now with its ledger entry (none when `entry.cents` is 0). */
async function settleToCredit(
  ctx: Ctx,
  r: { order: Pick<OrderRow, 'id' | 'userId'>; bookingId: string; cents: number; reason: string },
  entry: {
    cents: number;
    reason: 'returned' | 'cancel_refund' | 'closure_refund' | 'voucher_refund';
    expiresAt: Date | null;
  },
): Promise<RefundRow> {
  const row = await insertRefund(ctx.tx, {
    orderId: r.order.id,
    bookingId: r.bookingId,
    amountCents: r.cents,
    reason: r.reason,
    method: 'credit',
  });
  await markRefundSucceeded(ctx.tx, row.id, null, ctx.now);
  const order = await syncOrderRefunded(ctx.tx, r.order.id, ctx.now);
  if (entry.cents > 0)
    await insertCreditEntry(ctx.tx, {
      userId: r.order.userId,
      cents: entry.cents,
      reason: entry.reason,
      bookingId: r.bookingId,
      orderId: r.order.id,
      refundId: row.id,
      expiresAt: entry.expiresAt,
      at: ctx.now,
    });
  await insertAuditEntry(ctx.tx, {
    at: ctx.now,
    actor: ctx.actor,
    action: 'refundToCredit',
    bookingId: r.bookingId,
    orderId: r.order.id,
    reason: null,
    before: orderFacts(order?.before),
    after: { refund: 'succeeded', refundCents: r.cents, refundTo: 'credit', ...orderFacts(order?.after) },
  });
  return { ...row, status: 'succeeded', completedAt: ctx.now };
}

/** An order that will not be paid (a lapse, a cancelled intent, an unpaid cancel) gives its spent credit back. */
export async function returnSpentCredit(ctx: PaymentCtx, orderId: string): Promise<void> {
  const spent = await creditStillSpentOn(ctx.tx, orderId);
  if (!spent) return;
  await insertCreditEntry(ctx.tx, {
    userId: spent.userId,
    cents: spent.cents,
    reason: 'returned',
    bookingId: null,
    orderId,
    refundId: null,
    expiresAt: null,
    at: ctx.now,
  });
}

/**
 * Deleting an account with credit left refunds it to the card (API.md): the balance goes back
 * against the refunds the family took as credit, newest first. A refund wholly unspent becomes a
 * card refund again; one partly spent gives up the unspent part to a new card refund. Each leaves
 * the balance with a 'refunded_to_card' entry. Returns the card refunds' ids, to send after the commit.
 */
export async function creditBackToCard(ctx: Ctx, userId: string): Promise<string[]> {
  await lockCredit(ctx.tx, userId);
  // Expired credit is not refunded: its entry first, then what is left goes to the card.
  let left = (await settleExpiredCredit(ctx.tx, userId, ctx.now)).balanceCents;
  const toCard: string[] = [];
  for (const entry of await creditFromCardRefunds(ctx.tx, userId)) {
    if (left <= 0) break;
    const cents = Math.min(left, entry.cents);
    const refundId = await cardRefundFor(ctx, entry.refundId!, cents, entry.cents);
    if (!refundId) continue;
    await insertCreditEntry(ctx.tx, {
      userId,
      cents: -cents,
      reason: 'refunded_to_card',
      bookingId: entry.bookingId,
      orderId: entry.orderId,
      refundId: null,
      expiresAt: null,
      at: ctx.now,
    });
    await insertAuditEntry(ctx.tx, {
      at: ctx.now,
      actor: ctx.actor,
      action: 'creditBackToCard',
      bookingId: entry.bookingId,
      orderId: entry.orderId,
      reason: null,
      before: { refundTo: 'credit', refundCents: entry.cents },
      after: { refundTo: 'card', refundCents: cents, creditKeptCents: entry.cents - cents },
    });
    toCard.push(refundId);
    left -= cents;
  }
  return toCard;
}

/** The card refund `cents` of a credit refund of `whole` becomes: the refund itself, or a new one beside it. */
async function cardRefundFor(ctx: Ctx, creditRefundId: string, cents: number, whole: number): Promise<string | null> {
  if (cents === whole) return (await reopenCreditRefundToCard(ctx.tx, creditRefundId)) ? creditRefundId : null;
  const refund = await findRefund(ctx.tx, creditRefundId);
  if (!refund || !(await shrinkCreditRefund(ctx.tx, creditRefundId, cents))) return null;
  const card = await insertRefund(ctx.tx, {
    orderId: refund.orderId,
    bookingId: refund.bookingId,
    amountCents: cents,
    reason: 'account_deleted',
  });
  return card.id;
}
