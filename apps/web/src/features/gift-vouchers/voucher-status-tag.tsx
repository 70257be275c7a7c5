import { clsx } from 'clsx';
import type { VoucherStatus } from '@kringle/contracts/vouchers';
import { VOUCHER_STATUS_WORDS } from './gift-form';

/** The booking status tags' tints (bookings/status-tag.tsx), each text colour AA on its own tint. */
const TINTS: Record<VoucherStatus, string> = {
  pending: 'border-[#f5c58a] bg-[#fff3e2] text-[#7a4100]',
  active: 'border-[#a9d3b9] bg-pine-50 text-pine-800',
  spent: 'border-cream-300 bg-cream-100 text-ink-700',
  expired: 'border-cream-300 bg-cream-100 text-ink-700',
  cancelled: 'border-festive-100 bg-festive-50 text-festive-800',
};

export function VoucherStatusTag({ status }: { status: VoucherStatus }) {
  return (
    <span
      data-status={status}
      className={clsx(
        'inline-flex shrink-0 items-center rounded-full border px-3 py-1 text-sm font-semibold',
        TINTS[status],
      )}
    >
      {VOUCHER_STATUS_WORDS[status]}
    </span>
  );
}
