import { insertAuditEntry, type Actor } from '../audit-trail/audit-entries.repository';
import { statusOf } from '../vouchers/voucher-view';
import { insertVoucherEntry, lockVouchers, vouchersStillSpentOn } from '../vouchers/vouchers.repository';
import type { OrderRow } from './order-rows.repository';
import type { PaymentCtx } from './payment-moves';
import {
  insertRefund,
  markRefundSucceeded,
  orderFacts,
  syncOrderRefunded,
  voucherRefundedOf,
  VOUCHER_RETURNED,
  type RefundRow,
} from './refunds.repository';

/*
 * Gift vouchers' side of an order (decision 0112), as credit-moves.ts is credit's: what vouchers
 * paid goes back on them, as a refund row of method 'voucher' settled at once with their entries,
 * so receipts and reports count it as any refund of the sale.
 */
type Ctx = PaymentCtx & { actor: Actor };

/**
 * Refunds up to `cents` of what vouchers paid for the order, each voucher its part back. A voucher
 * expired or cancelled since cannot take it (its value would be lost): that part is answered as
 * `toCreditCents`, for the caller to give the family as account credit. Answers the vouchers'
 * refund (none when nothing went back on one).
 */
export async function refundVoucherPart(
  ctx: Ctx,
  order: Pick<OrderRow, 'id' | 'voucherCents'>,
  bookingId: string,
  cents: number,
): Promise<{ refund: RefundRow | undefined; toCreditCents: number }> {
  const refunded = await voucherRefundedOf(ctx.tx, order.id);
  const most = Math.min(cents, order.voucherCents - refunded.onVouchers - refunded.asCredit);
  if (most <= 0) return { refund: undefined, toCreditCents: 0 };
  // Locked as a cancel locks one: a cancel reading its balance meanwhile would miss what comes back.
  const out = await vouchersStillSpentOn(ctx.tx, order.id);
  const locked = await lockVouchers(
    ctx.tx,
    out.map((o) => o.voucherId),
  );
  const dead = new Set(locked.filter((v) => ['expired', 'cancelled'].includes(statusOf(v, ctx.now))).map((v) => v.id));
  let left = most;
  let toCreditCents = 0;
  // A dead voucher's part never goes back on it, so it stays "spent" in its ledger: what earlier
  // refunds gave as credit for dead vouchers is taken off them first, in the same order.
  let credited = refunded.asCredit;
  const parts: { voucherId: string; cents: number }[] = [];
  for (const o of out) {
    if (left <= 0) break;
    let open = o.cents;
    if (dead.has(o.voucherId)) {
      const before = Math.min(open, credited);
      open -= before;
      credited -= before;
    }
    const c = Math.min(left, open);
    if (c <= 0) continue;
    if (dead.has(o.voucherId)) toCreditCents += c;
    else parts.push({ voucherId: o.voucherId, cents: c });
    left -= c;
  }
  // A lapse may have given the vouchers back already (then paid late): the refund squares the order alone.
  const back = most - toCreditCents;
  if (back <= 0) return { refund: undefined, toCreditCents };
  const row = await insertRefund(ctx.tx, {
    orderId: order.id,
    bookingId,
    amountCents: back,
    reason: VOUCHER_RETURNED,
    method: 'voucher',
  });
  await markRefundSucceeded(ctx.tx, row.id, null, ctx.now);
  const synced = await syncOrderRefunded(ctx.tx, order.id, ctx.now);
  for (const p of parts)
    await insertVoucherEntry(ctx.tx, {
      voucherId: p.voucherId,
      cents: p.cents,
      reason: 'returned',
      orderId: order.id,
      bookingId,
      refundId: row.id,
      at: ctx.now,
    });
  await insertAuditEntry(ctx.tx, {
    at: ctx.now,
    actor: ctx.actor,
    action: 'refundToVoucher',
    bookingId,
    orderId: order.id,
    reason: null,
    before: orderFacts(synced?.before),
    after: { refund: 'succeeded', refundCents: back, refundTo: 'voucher', ...orderFacts(synced?.after) },
  });
  return { refund: { ...row, status: 'succeeded', completedAt: ctx.now }, toCreditCents };
}
