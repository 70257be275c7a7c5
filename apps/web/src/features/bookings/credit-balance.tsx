import { formatAud } from '@kringle/contracts/money';
import { useAccountCreditQuery } from './api';

/** The family's account credit, when it has some (decision 0111): the wizard's Overview offers to spend it. */
export function CreditBalance() {
  const { data } = useAccountCreditQuery();
  if (!data || data.balanceCents <= 0) return null;
  return (
    <p className="rounded-2xl border border-pine-600/30 bg-pine-50 px-4 py-3 text-ink-900" data-testid="credit-balance">
      <span className="font-semibold">Account credit: {formatAud(data.balanceCents)}</span>
      <span className="block text-sm text-ink-700">
        Use it on your next booking: tick &ldquo;Pay with my account credit&rdquo; at Overview.
      </span>
    </p>
  );
}
