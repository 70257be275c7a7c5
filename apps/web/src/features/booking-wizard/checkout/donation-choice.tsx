import { clsx } from 'clsx';
import { useEffect, useId, useState, type KeyboardEvent } from 'react';
import { formatAud } from '@kringle/contracts/money';
import { InlineAlert } from '../../../components/ui/inline-alert';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { setDonation } from '../state/booking-slice';
import { useCharityQuery } from './api';

const pill =
  'flex min-h-11 min-w-16 cursor-pointer items-center justify-center rounded-full border-2 px-4 font-semibold ' +
  'has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 ' +
  'has-[:focus-visible]:outline-festive-700';
const chosenPill = 'border-festive-700 bg-festive-50 text-festive-800';
const plainPill = 'border-cream-300 bg-white text-ink-900 hover:border-festive-600';
const input =
  'min-h-11 w-28 rounded-xl border border-cream-300 bg-white pl-7 pr-3 text-base tabular-nums text-ink-900 ' +
  'aria-invalid:border-festive-700';

/** Whole dollars or dollars and cents ("7", "7.5", "7.50"); null for anything else. */
export function dollarsToCents(text: string): number | null {
  const match = /^\s*\$?\s*(\d{1,5})(?:\.(\d{1,2}))?\s*$/.exec(text);
  if (!match) return null;
  return Number(match[1]) * 100 + Number((match[2] ?? '0').padEnd(2, '0'));
}

/**
 * Overview's donation (issue 52, decision 0109): offered only when the operator names a charity, off until
 * the family chooses an amount (one tap for a suggested one, or their own up to the maximum). It changes what
 * the card pays, not the GST. Once the order is placed it is shown, not changed.
 */
export function DonationChoice({ locked }: { locked: boolean }) {
  const dispatch = useWizardDispatch();
  const { data: charity } = useCharityQuery();
  const chosen = useWizardSelector((s) => s.booking.donationCents ?? 0);
  const placed = useWizardSelector((s) => s.booking.checkoutData?.donationCents);
  const suggested = charity?.suggestedCents ?? [];
  // Until the family picks, an amount kept from before is "Other" only if it is not a suggested one (known
  // once the charity has loaded).
  const [picked, setOther] = useState<boolean | null>(null);
  const other = picked ?? (chosen > 0 && !suggested.includes(chosen));
  const [draft, setDraft] = useState(() => (chosen > 0 ? (chosen / 100).toFixed(2) : ''));
  const [error, setError] = useState<string | null>(null);
  const id = useId();
  // A donation kept from before the operator stopped naming a charity would only be refused.
  const offered = Boolean(charity?.name);
  useEffect(() => {
    if (charity && !offered && chosen > 0 && !locked) dispatch(setDonation(0));
  }, [charity, offered, chosen, locked, dispatch]);

  if (!charity?.name) return null;
  const max = charity.maxCents;
  if (locked) {
    const given = placed ?? chosen;
    return given > 0 ? (
      <p className="mt-3 border-t border-cream-200 pt-3 text-ink-900" data-testid="donation">
        Your donation to {charity.name}: <span className="font-semibold">{formatAud(given)}</span>. Thank you!
      </p>
    ) : null;
  }

  const choose = (cents: number) => {
    setOther(false);
    setError(null);
    dispatch(setDonation(cents));
  };
  const takeDraft = () => {
    const cents = dollarsToCents(draft);
    if (draft.trim() === '') return choose(0);
    if (cents === null || cents > max) {
      setError(`Enter an amount up to ${formatAud(max)}, such as 7 or 7.50.`);
      return;
    }
    setError(null);
    setDraft((cents / 100).toFixed(2));
    dispatch(setDonation(cents));
  };
  const onEnter = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    takeDraft();
  };
  const options: { label: string; cents: number }[] = [
    { label: 'No thanks', cents: 0 },
    ...suggested.map((cents) => ({ label: formatAud(cents).replace(/\.00$/, ''), cents })),
  ];

  return (
    <fieldset className="mt-3 border-t border-cream-200 pt-3" data-testid="donation">
      <legend className="float-left w-full font-semibold text-ink-900">Add a donation to {charity.name}?</legend>
      <p id={`${id}-about`} className="clear-left text-sm text-ink-700">
        Optional. A donation has no GST and is shown on your tax invoice.
      </p>
      <div className="mt-2 flex flex-wrap gap-2" role="presentation">
        {options.map((option) => {
          const on = !other && chosen === option.cents;
          return (
            <label key={option.cents} className={clsx(pill, on ? chosenPill : plainPill)}>
              <input
                type="radio"
                name={`${id}-amount`}
                className="sr-only"
                checked={on}
                onChange={() => choose(option.cents)}
                aria-describedby={`${id}-about`}
              />
              {option.label}
            </label>
          );
        })}
        <label className={clsx(pill, other ? chosenPill : plainPill)}>
          <input
            type="radio"
            name={`${id}-amount`}
            className="sr-only"
            checked={other}
            onChange={() => {
              setOther(true);
              dispatch(setDonation(0));
              requestAnimationFrame(() => document.getElementById(`${id}-other`)?.focus());
            }}
          />
          Other amount
        </label>
      </div>
      {other && (
        <div className="mt-3 flex flex-wrap items-center gap-2">
          <label htmlFor={`${id}-other`} className="text-ink-900">
            Amount (AUD, up to {formatAud(max)})
          </label>
          <span className="relative">
            <span aria-hidden="true" className="absolute left-3 top-1/2 -translate-y-1/2 text-ink-600">
              $
            </span>
            <input
              id={`${id}-other`}
              inputMode="decimal"
              autoComplete="off"
              enterKeyHint="done"
              value={draft}
              onChange={(e) => setDraft(e.target.value)}
              onBlur={takeDraft}
              onKeyDown={onEnter}
              className={input}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? `${id}-error` : undefined}
            />
          </span>
        </div>
      )}
      <InlineAlert id={`${id}-error`} error={error} />
    </fieldset>
  );
}
