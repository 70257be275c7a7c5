import { creditLots } from '@kringle/contracts/credit';
import { formatAud } from '@kringle/contracts/money';
import { useAccountCreditQuery } from './api';
import { expiryDate } from './voucher-balances';

/**
 * The family's account credit, when it has some (decision 0111): the wizard's Overview offers to
 * spend it. Credit lasts three years, spent soonest-expiring first (decision 0115): the next part to
 * lapse is named, so nobody loses it unawares.
 */
export function CreditBalance() {
  const { data } = useAccountCreditQuery();
  if (!data || data.balanceCents <= 0) return null;
  const now = new Date().toISOString();
  const next = creditLots(data.items).find((lot) => lot.cents > 0 && lot.expiresAt > now);
  return (
    <p className="rounded-2xl border border-pine-600/30 bg-pine-50 px-4 py-3 text-ink-900" data-testid="credit-balance">
      <span className="font-semibold">Account credit: {formatAud(data.balanceCents)}</span>
      <span className="block text-sm text-ink-700">
        Use it on your next booking: tick &ldquo;Pay with my account credit&rdquo; at Overview.
        {next &&
          (next.cents >= data.balanceCents
            ? ` It lasts until ${expiryDate(next.expiresAt)}.`
            : ` ${formatAud(next.cents)} of it lasts until ${expiryDate(next.expiresAt)}.`)}
      </span>
    </p>
  );
}
