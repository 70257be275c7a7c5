import { creditStillSpentOn, insertCreditEntry, lockCredit } from '../credit/credit.repository';
import { settleExpiredCredit } from '../credit/credit-expiry';
import { lockVoucherParts, spendVouchers, type VoucherPart } from '../vouchers/voucher-spending';
import { vouchersReturnedByLapse } from '../vouchers/vouchers.repository';
import { AppError } from '../../lib/app-error';
import type { OrderRow } from './order-rows.repository';
import type { PaymentCtx } from './payment-moves';

/*
 * A lapsed checkout paid late (its card paid between the lapse and the intent's cancel, or the cancel
 * failed). The lapse gave the order's credit and vouchers back; confirming the booking on the card's
 * part alone would give the family those parts twice. So they are taken again first, under the same
 * locks the checkout takes (decisions 0111, 0112); when one no longer covers its part (spent since,
 * cancelled, expired), the booking is not confirmed and the payment goes back whole.
 */
export interface Retake {
  creditCents: number;
  voucherParts: VoucherPart[];
}

type Order = Pick<OrderRow, 'id' | 'userId' | 'creditCents' | 'voucherCents'>;

/**
 * Locks what the order needs back and answers it, or null when the family no longer has it. Writes
 * nothing of the order's; credit whose time is up is entered as expired first (decision 0115).
 */
export async function lockReturnedParts(ctx: PaymentCtx, order: Order): Promise<Retake | null> {
  const creditCents =
    order.creditCents > 0 ? order.creditCents - ((await creditStillSpentOn(ctx.tx, order.id))?.cents ?? 0) : 0;
  const voucherParts = order.voucherCents > 0 ? await vouchersReturnedByLapse(ctx.tx, order.id) : [];
  // Vouchers before credit, as a checkout takes them: the other order could deadlock with one.
  try {
    await lockVoucherParts(ctx.tx, order.userId, voucherParts, ctx.now);
  } catch (err) {
    if (err instanceof AppError && err.code === 'VOUCHER_INVALID') return null;
    throw err;
  }
  if (creditCents > 0) {
    await lockCredit(ctx.tx, order.userId);
    if ((await settleExpiredCredit(ctx.tx, order.userId, ctx.now)).balanceCents < creditCents) return null;
  }
  return { creditCents, voucherParts };
}

/** Spends again what lockReturnedParts locked, against the order (when its booking is confirmed). */
export async function retakeParts(ctx: PaymentCtx, order: Order, bookingId: string, retake: Retake): Promise<void> {
  if (retake.creditCents > 0)
    await insertCreditEntry(ctx.tx, {
      userId: order.userId,
      cents: -retake.creditCents,
      reason: 'spent',
      bookingId,
      orderId: order.id,
      refundId: null,
      expiresAt: null,
      at: ctx.now,
    });
  await spendVouchers(ctx.tx, order.userId, retake.voucherParts, { orderId: order.id, bookingId, now: ctx.now });
}
