import { clsx } from 'clsx';
import type { ReactNode } from 'react';

/** The result pages' card: an icon, a heading, plain words and the next actions. */
export function ResultFrame({
  title,
  icon,
  tone,
  children,
  actions,
}: {
  title: string;
  icon: ReactNode;
  tone: 'good' | 'calm' | 'problem';
  children: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <section className="mx-auto flex w-full max-w-2xl flex-col gap-6 px-4 py-8 sm:px-8 sm:py-12">
      <div
        className={
          'flex flex-col items-center gap-5 rounded-2xl border border-cream-300 bg-cream-50 px-5 py-8 ' +
          'text-center shadow-sm sm:px-8'
        }
      >
        <span
          aria-hidden="true"
          className={clsx(
            'flex size-16 items-center justify-center rounded-full [&_svg]:size-8',
            tone === 'good' && 'bg-pine-50 text-pine-700',
            tone === 'calm' && 'bg-gold-300/40 text-gold-700',
            tone === 'problem' && 'bg-festive-50 text-festive-700',
          )}
        >
          {icon}
        </span>
        <h1 className="text-balance text-3xl font-semibold text-ink-900 sm:text-4xl">{title}</h1>
        <div className="flex w-full max-w-lg flex-col gap-4 text-base leading-relaxed text-ink-700">{children}</div>
        {actions && (
          <div className="flex w-full flex-col-reverse gap-3 sm:w-auto sm:flex-row sm:justify-center">{actions}</div>
        )}
      </div>
    </section>
  );
}
