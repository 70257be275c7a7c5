import { Link } from 'react-router';
import { formatAud } from '@kringle/contracts/money';
import type { Voucher } from '@kringle/contracts/vouchers';
import { useAccountVouchersQuery } from './api';

/** The vouchers in this family's account that still have something to spend, in the order they were added. */
export const spendableVouchers = (items: Voucher[]) =>
  items.filter((v) => v.claimed && v.status === 'active' && v.balanceCents > 0);

/**
 * A voucher's or credit's last day, as Sydney's calendar has it (the brand's expiry dates): "7 December 2029", its
 * parts joined by no-break spaces (U+00A0) so that a line never ends inside the date.
 */
export const expiryDate = (instant: string) =>
  new Intl.DateTimeFormat('en-AU', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'Australia/Sydney',
  })
    .format(new Date(instant))
    .replace(/\s/g, '\u00a0');

/**
 * My Bookings' gift vouchers (issue 52, decision 0112), beside the account credit: each one's balance and expiry,
 * and the way to add another. Shown once the family has one; the wizard's Overview offers them.
 */
export function VoucherBalances() {
  const { data } = useAccountVouchersQuery();
  const vouchers = data ? spendableVouchers(data) : [];
  if (vouchers.length === 0) return null;
  const total = vouchers.reduce((n, v) => n + v.balanceCents, 0);
  return (
    <section
      aria-labelledby="voucher-balances"
      data-testid="voucher-balances"
      className="rounded-2xl border border-pine-600/30 bg-pine-50 px-4 py-3 text-ink-900"
    >
      <h2 id="voucher-balances" className="font-semibold">
        Gift vouchers: {formatAud(total)} to spend
      </h2>
      <ul className="mt-1 flex flex-col gap-1">
        {vouchers.map((v) => (
          <li
            key={v.id}
            data-testid="voucher-balance"
            className="flex flex-wrap items-baseline justify-between gap-x-3 text-sm"
          >
            <span className="font-mono tracking-wide">{v.code}</span>
            <span className="text-ink-700">
              <span className="font-semibold text-ink-900 tabular-nums">{formatAud(v.balanceCents)}</span> left of{' '}
              {formatAud(v.amountCents)}
              {v.expiresAt ? `, until ${expiryDate(v.expiresAt)}` : ''}
            </span>
          </li>
        ))}
      </ul>
      <p className="mt-2 text-sm text-ink-700">
        Choose them at the Check your booking step.{' '}
        <Link to="/gift/redeem" className="font-semibold whitespace-nowrap text-pine-800 underline underline-offset-2">
          Add a gift voucher
        </Link>
      </p>
    </section>
  );
}
