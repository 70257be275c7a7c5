import { useEffect, useRef, type ReactNode } from 'react';
import { PhoneActionBar } from '../shell/phone-action-bar';
import { usePhoneLayout } from '../shell/use-media';

/**
 * One step's frame: a heading that takes focus when the step changes (so screen readers hear
 * where they are), a short intro, the content and the step's actions (on a phone, in the bar
 * fixed at the bottom with the total).
 */
export function StepFrame({
  title,
  intro,
  children,
  actions,
  focusOnMount = true,
}: {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
  focusOnMount?: boolean;
}) {
  const heading = useRef<HTMLHeadingElement>(null);
  const phone = usePhoneLayout();
  useEffect(() => {
    if (!focusOnMount) return;
    // A new step starts at the top, even when the last one was left from far down a long list.
    window.scrollTo({ top: 0 });
    heading.current?.focus({ preventScroll: true });
  }, [focusOnMount]);
  return (
    <section aria-labelledby="wizard-step-title" className="flex flex-col gap-5">
      <header className="flex flex-col gap-1">
        <h2
          id="wizard-step-title"
          ref={heading}
          tabIndex={-1}
          className="text-2xl font-semibold text-ink-900 focus:outline-none sm:text-3xl"
        >
          {title}
        </h2>
        {intro && <p className="text-base leading-relaxed text-ink-700">{intro}</p>}
      </header>
      {children}
      {actions &&
        (phone ? (
          <PhoneActionBar>{actions}</PhoneActionBar>
        ) : (
          <div className="flex flex-col-reverse gap-3 pt-1 sm:flex-row sm:items-center sm:justify-between">
            {actions}
          </div>
        ))}
    </section>
  );
}

/** A choice card: a large pressable button with a check when chosen. */
export function ChoiceCard({
  chosen,
  onClick,
  children,
}: {
  chosen: boolean;
  onClick: () => void;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-pressed={chosen}
      onClick={onClick}
      className={
        'relative flex w-full flex-col gap-1 rounded-2xl border-2 bg-cream-50 p-4 text-left transition-colors ' +
        (chosen ? 'border-festive-700 bg-festive-50 shadow-sm' : 'border-cream-300 hover:border-festive-600')
      }
    >
      {children}
      <span
        aria-hidden="true"
        className={
          'absolute right-4 top-4 flex size-6 items-center justify-center rounded-full border-2 ' +
          (chosen ? 'border-festive-700 bg-festive-700 text-cream-50' : 'border-cream-300 bg-cream-50')
        }
      >
        {chosen && <span className="block size-2.5 rounded-full bg-cream-50" />}
      </span>
    </button>
  );
}
