import { clsx } from 'clsx';
import { donationLabel } from '@kringle/contracts/donations';
import { formatAud } from '@kringle/contracts/money';
import { useWizardSelector } from '../state/booking-hooks';
import { amountDue } from './amount-due';
import { useCharityQuery } from './api';

/**
 * The cart's last lines, on Overview and in the cart: the promo code's cents off, the donation, the gift
 * vouchers and the account credit used, the GST and the total to pay, all as the server priced them (decision
 * 0106: the web never works out a discount itself).
 */
export function CartTotals({ large, totalTestId }: { large?: boolean; totalTestId?: string }) {
  const booking = useWizardSelector((s) => s.booking);
  const { promo, goodsCents, donationCents, vouchers, voucherCents, creditCents, dueCents, gstCents } =
    amountDue(booking);
  const charity = useCharityQuery(undefined, { skip: donationCents === 0 }).data?.name;
  // A booking reopened for payment from My Bookings knows its amount, not its code.
  const offCents = goodsCents + donationCents - voucherCents - creditCents - dueCents;
  return (
    <dl className={clsx('flex flex-col gap-1 border-t-2 border-cream-300', large ? 'mt-2 pt-3' : 'pt-2')}>
      {offCents > 0 && (
        <div className="flex justify-between gap-3 font-medium text-pine-800" data-testid="promo-line">
          <dt>{promo ? `Promo ${promo.code}` : 'Discount'}</dt>
          <dd className="shrink-0 tabular-nums">−{formatAud(offCents)}</dd>
        </div>
      )}
      {donationCents > 0 && (
        <div className="flex justify-between gap-3 text-ink-900" data-testid="donation-line">
          <dt>{charity ? donationLabel(charity) : 'Donation (no GST)'}</dt>
          <dd className="shrink-0 tabular-nums">{formatAud(donationCents)}</dd>
        </div>
      )}
      {vouchers.map((v) => (
        <div key={v.code} className="flex justify-between gap-3 font-medium text-pine-800" data-testid="voucher-line">
          <dt className="min-w-0">
            Gift voucher <span className="font-mono tracking-wide whitespace-nowrap">{v.code}</span>
          </dt>
          <dd className="shrink-0 tabular-nums">−{formatAud(v.cents)}</dd>
        </div>
      ))}
      {creditCents > 0 && (
        <div className="flex justify-between gap-3 font-medium text-pine-800" data-testid="credit-line">
          <dt>Account credit</dt>
          <dd className="shrink-0 tabular-nums">−{formatAud(creditCents)}</dd>
        </div>
      )}
      <div className="flex justify-between text-sm text-ink-600">
        <dt>GST included</dt>
        <dd className="tabular-nums">{formatAud(gstCents)}</dd>
      </div>
      <div className={clsx('flex justify-between font-semibold text-ink-900', large ? 'text-xl' : 'text-lg')}>
        <dt>Total (AUD)</dt>
        <dd className="tabular-nums" data-testid={totalTestId}>
          {formatAud(dueCents)}
        </dd>
      </div>
    </dl>
  );
}
