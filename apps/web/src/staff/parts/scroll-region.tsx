import type { ReactNode } from 'react';

/** A wide table scrolls sideways on a phone; the scroll area can be reached by keyboard. */
export function ScrollRegion({ label, children }: { label: string; children: ReactNode }) {
  return (
    // tabIndex: a scrollable region must take focus (WCAG 2.1.1, axe "scrollable-region-focusable").
    // relative: screen-reader-only text in the table is positioned, and would otherwise widen the page.
    <div
      role="region"
      aria-label={label}
      tabIndex={0}
      className="relative overflow-x-auto rounded-xl border border-cream-300 bg-cream-50"
    >
      {children}
    </div>
  );
}
