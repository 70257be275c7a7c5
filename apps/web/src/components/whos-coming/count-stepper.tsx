import { clsx } from 'clsx';

/** − n + with 44 px targets; the buttons say what they change, and the count is announced. */
export function CountStepper({
  label,
  value,
  max,
  onChange,
  describedBy,
}: {
  label: string;
  value: number;
  max: number;
  onChange: (next: number) => void;
  describedBy?: string;
}) {
  const button =
    'flex size-11 items-center justify-center rounded-full border-2 text-xl font-semibold leading-none ' +
    'transition-colors disabled:cursor-not-allowed disabled:opacity-40';
  const singular = label.replace(/s$/, '').toLowerCase();
  return (
    <div className="flex items-center justify-between gap-3">
      <span className="font-semibold text-ink-900" id={`${singular}-label`}>
        {label}
      </span>
      <div
        className="flex items-center gap-1"
        role="group"
        aria-labelledby={`${singular}-label`}
        aria-describedby={describedBy}
      >
        <button
          type="button"
          className={clsx(button, 'border-cream-300 bg-cream-50 text-ink-900 enabled:hover:border-festive-700')}
          aria-label={`One fewer ${singular}`}
          disabled={value <= 0}
          onClick={() => onChange(value - 1)}
        >
          <span aria-hidden="true">−</span>
        </button>
        <output
          aria-live="polite"
          aria-label={`${value} ${label.toLowerCase()}`}
          className="min-w-8 text-center text-lg font-semibold tabular-nums text-ink-900"
        >
          {value}
        </output>
        <button
          type="button"
          className={clsx(button, 'border-festive-700 bg-festive-700 text-cream-50 enabled:hover:bg-festive-800')}
          aria-label={`One more ${singular}`}
          disabled={value >= max}
          onClick={() => onChange(value + 1)}
        >
          <span aria-hidden="true">+</span>
        </button>
      </div>
    </div>
  );
}
