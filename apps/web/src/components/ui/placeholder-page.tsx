import type { ReactNode } from 'react';

/** A calm page frame with a title, a short explanation and an optional action. */
export function PlaceholderPage({ title, children, action, icon }: { title: string; children: ReactNode; action?: ReactNode; icon?: ReactNode }) {
  return (
    <section className="mx-auto flex w-full max-w-3xl flex-col gap-6 px-4 py-8 sm:px-8 sm:py-12">
      <h1 className="text-3xl font-semibold text-ink-900 sm:text-4xl">{title}</h1>
      <div className="flex flex-col items-center gap-4 rounded-2xl border border-dashed border-cream-300 bg-cream-50 px-6 py-12 text-center">
        {icon && (
          <span aria-hidden="true" className="flex size-14 items-center justify-center rounded-full bg-cream-200 text-festive-700">
            {icon}
          </span>
        )}
        <div className="max-w-md text-base leading-relaxed text-ink-700">{children}</div>
        {action}
      </div>
    </section>
  );
}
