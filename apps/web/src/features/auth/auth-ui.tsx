import { clsx } from 'clsx';
import { useEffect, useRef, type ReactNode } from 'react';

/** Links inside auth cards: festive red, underlined, with a 44 px touch target. */
export const linkClasses =
  'inline-flex min-h-11 items-center font-semibold text-festive-700 underline underline-offset-4 ' +
  'hover:text-festive-800';

/**
 * The card's title. `focus` moves focus to it when a card changes state in place (sent,
 * verified, expired...), so screen readers announce the new state and keyboard users start there.
 */
export function AuthHeading({ title, children, focus }: { title: string; children?: ReactNode; focus?: boolean }) {
  const ref = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (focus) ref.current?.focus();
  }, [focus]);
  return (
    <div className="flex flex-col gap-2">
      <h1
        ref={ref}
        tabIndex={focus ? -1 : undefined}
        className="text-2xl font-semibold text-ink-900 outline-none sm:text-3xl"
      >
        {title}
      </h1>
      {children && <div className="text-base leading-relaxed text-ink-700">{children}</div>}
    </div>
  );
}

type Tone = 'error' | 'success' | 'info';
const TONES: Record<Tone, string> = {
  error: 'border-festive-100 bg-festive-50 text-festive-900',
  success: 'border-pine-600/30 bg-pine-50 text-pine-800',
  info: 'border-cream-300 bg-cream-100 text-ink-700',
};

/** A message box for the whole form. Errors are announced at once (role=alert); the rest politely. */
export function FormAlert({
  tone,
  title,
  children,
  className,
}: {
  tone: Tone;
  title?: string;
  children?: ReactNode;
  className?: string;
}) {
  return (
    <div
      role={tone === 'error' ? 'alert' : 'status'}
      className={clsx('rounded-2xl border px-4 py-3 text-base leading-relaxed', TONES[tone], className)}
    >
      {title && <p className="font-semibold">{title}</p>}
      {children && <div className={title ? 'mt-1' : undefined}>{children}</div>}
    </div>
  );
}

/** A round badge over a state's heading (sent, verified, expired...). Decorative. */
export function StateBadge({ tone, children }: { tone: 'success' | 'warning' | 'info'; children: ReactNode }) {
  return (
    <span
      aria-hidden="true"
      className={clsx(
        'flex size-14 items-center justify-center rounded-full text-2xl',
        tone === 'success' && 'bg-pine-50 text-pine-700',
        tone === 'warning' && 'bg-festive-50 text-festive-700',
        tone === 'info' && 'bg-cream-200 text-gold-700',
      )}
    >
      {children}
    </span>
  );
}
