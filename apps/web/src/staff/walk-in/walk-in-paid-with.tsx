import { PAID_WITH, PAID_WITH_LABELS, type PaidWith } from '@kringle/contracts/staff';
import { clsx } from 'clsx';
import { ErrorText } from '../parts/form-parts';

/**
 * How the family paid at the set (issue 37): no way is chosen for the seller, so the end-of-day
 * totals count what was asked, not a default left as it was.
 */
export function WalkInPaidWith({
  id,
  value,
  error,
  onChange,
}: {
  id: string;
  value: PaidWith | '';
  error: string | undefined;
  onChange: (paidWith: PaidWith) => void;
}) {
  return (
    <fieldset
      data-field="paidWith"
      className="min-w-0 space-y-2 lg:col-span-2"
      aria-describedby={error ? `${id}-paid-with-error` : undefined}
    >
      <legend className="mb-2 text-xl font-semibold">Paid with</legend>
      {error && <ErrorText id={`${id}-paid-with-error`}>{error}</ErrorText>}
      <div className="flex flex-wrap gap-2">
        {PAID_WITH.map((method) => (
          <label
            key={method}
            className={clsx(
              'flex min-h-11 cursor-pointer items-center gap-2 rounded-lg px-4 font-semibold ring-1 ' +
                'has-focus-visible:ring-2 has-focus-visible:ring-pine-700',
              value === method ? 'bg-pine-50 ring-pine-700' : 'bg-cream-100 ring-cream-300',
            )}
          >
            <input
              type="radio"
              name="paidWith"
              value={method}
              checked={value === method}
              onChange={() => onChange(method)}
              className="size-5 accent-pine-700"
              aria-invalid={error ? true : undefined}
            />
            {PAID_WITH_LABELS[method]}
          </label>
        ))}
      </div>
    </fieldset>
  );
}
