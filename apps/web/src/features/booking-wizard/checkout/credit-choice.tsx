import { useEffect, useId } from 'react';
import { formatAud } from '@kringle/contracts/money';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { setCredit } from '../state/booking-slice';
import { useWizardCreditQuery } from './api';

/**
 * Overview's account credit (issue 52, decision 0111): offered only when the family has some. Ticked, the
 * cart asks the server to spend it first (as much as the order costs) and the card pays the rest; all of it
 * and no card is needed. Once the order is placed the totals show what it spent.
 */
export function CreditChoice({ locked }: { locked: boolean }) {
  const dispatch = useWizardDispatch();
  const { data } = useWizardCreditQuery();
  const chosen = useWizardSelector((s) => s.booking.creditCents ?? null);
  const balance = data?.balanceCents ?? 0;
  const id = useId();
  // The balance moved (spent on another booking, or given back): use what there is now, or nothing.
  useEffect(() => {
    if (locked || !data || chosen === null || chosen === balance) return;
    dispatch(setCredit(balance > 0 ? balance : null));
  }, [locked, data, chosen, balance, dispatch]);

  if (locked || balance <= 0) return null;
  return (
    <div className="mt-3 border-t border-cream-200 pt-3" data-testid="credit">
      <label className="flex min-h-11 cursor-pointer items-center gap-3 font-semibold text-ink-900">
        <input
          type="checkbox"
          className="size-5 shrink-0 accent-festive-700"
          checked={chosen !== null}
          onChange={(e) => dispatch(setCredit(e.target.checked ? balance : null))}
          aria-describedby={`${id}-about`}
        />
        Pay with my account credit
      </label>
      <p id={`${id}-about`} className="pl-8 text-sm text-ink-700">
        You have {formatAud(balance)} of credit. It pays first; your card pays the rest.
      </p>
    </div>
  );
}
