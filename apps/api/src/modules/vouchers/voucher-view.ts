import type { Voucher, VoucherStatus } from '@kringle/contracts/vouchers';
import { VOUCHER_LIFETIME_YEARS } from '@kringle/contracts/vouchers';
import type { VoucherWithBalance } from './vouchers.repository';
import { shownCode, voucherCode } from './voucher-codes';

/** Send days and "today" are the brand's (its locations are on the east coast; decision 0112). */
export const VOUCHER_TIME_ZONE = 'Australia/Sydney';

/** A voucher lasts three years from its sale, to the instant. */
export function voucherExpiry(paidAt: Date): Date {
  const at = new Date(paidAt);
  at.setUTCFullYear(at.getUTCFullYear() + VOUCHER_LIFETIME_YEARS);
  return at;
}

/** The status a family sees: the sale's, then what its balance and its expiry make of it. */
export function statusOf(v: VoucherWithBalance, now: Date): VoucherStatus {
  if (v.status === 'cancelled') return 'cancelled';
  if (v.status !== 'paid') return 'pending';
  if (v.expiresAt! <= now) return 'expired';
  return v.balanceCents > 0 ? 'active' : 'spent';
}

/** Pays at checkout: paid, not cancelled or expired, with a balance. */
export const spendable = (v: VoucherWithBalance, now: Date) => statusOf(v, now) === 'active';

export function voucherView(v: VoucherWithBalance, viewerId: string, key: string, now: Date): Voucher {
  const bought = v.buyerUserId === viewerId;
  const claimed = v.ownerUserId === viewerId;
  return {
    id: v.id,
    code: shownCode(voucherCode(key, v.id), bought || claimed),
    status: statusOf(v, now),
    amountCents: v.amountCents,
    balanceCents: v.status === 'paid' ? v.balanceCents : 0,
    expiresAt: v.expiresAt?.toISOString() ?? null,
    recipientName: v.recipientName,
    sendOn: v.sendOn,
    sentAt: v.sentAt?.toISOString() ?? null,
    bought,
    claimed,
  };
}
