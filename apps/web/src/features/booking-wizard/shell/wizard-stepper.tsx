import { clsx } from 'clsx';
import { CheckIcon } from '../../../components/ui/icons';
import { WIZARD_STEPS } from '../state/wizard-steps';

type Step = { key: string; label: string };

/**
 * Where the family is in the seven steps (spec §2): numbered dots joined by a line, each label
 * under its dot on wider screens. On a phone only the current label is written out above the
 * dots; every label is still read out to screen readers.
 */
export function WizardStepper({ current, steps = WIZARD_STEPS }: { current: number; steps?: readonly Step[] }) {
  const step = steps[current] ?? steps[0]!;
  return (
    <nav aria-label="Booking steps" className="flex flex-col gap-2">
      <p className="text-sm font-medium text-ink-600 sm:hidden" aria-hidden="true">
        Step {current + 1} of {steps.length}: <span className="font-semibold text-ink-900">{step.label}</span>
      </p>
      <ol className="flex">
        {steps.map((s, index) => {
          const done = index < current;
          const here = index === current;
          return (
            <li
              key={s.key}
              aria-current={here ? 'step' : undefined}
              className="relative flex flex-1 flex-col items-center gap-1"
            >
              {index < steps.length - 1 && (
                <span
                  aria-hidden="true"
                  className={clsx(
                    'absolute left-[calc(50%+18px)] right-[calc(-50%+18px)] top-3.5 h-0.5 rounded-full',
                    done ? 'bg-pine-600' : 'bg-cream-300',
                  )}
                />
              )}
              <span
                aria-hidden="true"
                className={clsx(
                  'relative flex size-7 shrink-0 items-center justify-center rounded-full text-sm font-semibold',
                  done && 'bg-pine-700 text-cream-50',
                  here && 'bg-festive-700 text-cream-50 ring-4 ring-festive-100',
                  !done && !here && 'border border-cream-300 bg-cream-50 text-ink-600',
                )}
              >
                {done ? <CheckIcon className="size-4" /> : index + 1}
              </span>
              <span
                className={clsx(
                  'whitespace-nowrap text-xs max-sm:sr-only sm:text-sm',
                  here ? 'font-semibold text-ink-900' : 'text-ink-600',
                )}
              >
                {s.label}
                <span className="sr-only">{done ? ' (done)' : here ? ' (current step)' : ''}</span>
              </span>
            </li>
          );
        })}
      </ol>
    </nav>
  );
}
