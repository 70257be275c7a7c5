import { clsx } from 'clsx';
import type { FormEvent, Ref } from 'react';
import { Button } from '../../../components/ui/button';

const input =
  'min-h-11 w-full min-w-0 rounded-xl border border-cream-300 bg-white px-3 text-base uppercase text-ink-900 ' +
  'aria-invalid:border-festive-700';

/**
 * Overview's code fields (a promo code, a gift voucher): a labelled box and Apply, the message beside it
 * described by `${id}-error` while `invalid`. Typed as said: the server checks the code.
 */
export function CodeForm({
  id,
  label,
  name,
  value,
  onChange,
  onSubmit,
  inputRef,
  busy,
  invalid,
  mono,
  applyLabel,
}: {
  id: string;
  label: string;
  name: string;
  value: string;
  onChange: (value: string) => void;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  inputRef: Ref<HTMLInputElement>;
  busy: boolean;
  invalid: boolean;
  /** Letters in a fixed width (a voucher's XXXX-XXXX-XXXX). */
  mono?: boolean;
  /** The button's name when "Apply" alone would not say to what. */
  applyLabel?: string;
}) {
  return (
    <form onSubmit={onSubmit} aria-labelledby={`${id}-label`} noValidate>
      <label id={`${id}-label`} htmlFor={id} className="font-semibold text-ink-900">
        {label}
      </label>
      <div className="mt-1 flex gap-2">
        <input
          ref={inputRef}
          id={id}
          name={name}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          maxLength={40}
          autoComplete="off"
          autoCapitalize="characters"
          spellCheck={false}
          enterKeyHint="done"
          className={clsx(input, mono ? 'font-mono tracking-wide' : 'placeholder:normal-case')}
          aria-invalid={invalid ? true : undefined}
          aria-describedby={invalid ? `${id}-error` : undefined}
        />
        <Button
          type="submit"
          variant="secondary"
          className="shrink-0"
          disabled={busy}
          aria-label={busy || !applyLabel ? undefined : applyLabel}
        >
          {busy ? 'Checking…' : 'Apply'}
        </Button>
      </div>
    </form>
  );
}
