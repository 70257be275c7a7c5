import { insertAuditEntry, type Actor } from '../audit-trail/audit-entries.repository';
import { returnVoucherParts } from '../vouchers/voucher-spending';
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

/** Refunds up to `cents` of what vouchers paid for the order; answers the refund (none when nothing was theirs). */
export async function refundVoucherPart(
  ctx: Ctx,
  order: Pick<OrderRow, 'id' | 'voucherCents'>,
  bookingId: string,
  cents: number,
): Promise<RefundRow | undefined> {
  const back = Math.min(cents, order.voucherCents - (await voucherRefundedOf(ctx.tx, order.id)));
  if (back <= 0) return undefined;
  const row = await insertRefund(ctx.tx, {
    orderId: order.id,
    bookingId,
    amountCents: back,
    reason: VOUCHER_RETURNED,
    method: 'voucher',
  });
  await markRefundSucceeded(ctx.tx, row.id, null, ctx.now);
  const synced = await syncOrderRefunded(ctx.tx, order.id, ctx.now);
  // A lapse may have given the vouchers back already (then paid late): the refund squares the order alone.
  await returnVoucherParts(ctx.tx, order.id, { now: ctx.now, bookingId, refundId: row.id, cents: back });
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
  return { ...row, status: 'succeeded', completedAt: ctx.now };
}
