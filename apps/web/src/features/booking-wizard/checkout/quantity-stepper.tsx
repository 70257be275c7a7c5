import { clsx } from 'clsx';

/**
 * − quantity + with 44 px targets. The buttons name the item ("Add one Classic Print") so a
 * screen reader hears which line they change; the count is announced as it changes.
 */
export function QuantityStepper({
  name,
  quantity,
  max,
  onChange,
  disabled,
}: {
  name: string;
  quantity: number;
  max: number;
  onChange: (next: number) => void;
  disabled?: boolean;
}) {
  const button =
    'flex size-11 items-center justify-center rounded-full border-2 text-xl font-semibold leading-none ' +
    'transition-colors disabled:cursor-not-allowed disabled:opacity-40';
  return (
    <div className="flex items-center gap-1" role="group" aria-label={`Quantity of ${name}`}>
      <button
        type="button"
        className={clsx(button, 'border-cream-300 bg-cream-50 text-ink-900 enabled:hover:border-festive-700')}
        aria-label={`Remove one ${name}`}
        disabled={disabled || quantity <= 0}
        onClick={() => onChange(quantity - 1)}
      >
        <span aria-hidden="true">−</span>
      </button>
      <output
        aria-live="polite"
        aria-label={`${quantity} ${name}`}
        className="min-w-8 text-center text-lg font-semibold tabular-nums text-ink-900"
      >
        {quantity}
      </output>
      <button
        type="button"
        className={clsx(button, 'border-festive-700 bg-festive-700 text-cream-50 enabled:hover:bg-festive-800')}
        aria-label={`Add one ${name}`}
        disabled={disabled || quantity >= max}
        onClick={() => onChange(quantity + 1)}
      >
        <span aria-hidden="true">+</span>
      </button>
    </div>
  );
}
