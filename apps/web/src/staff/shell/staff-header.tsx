import type { StaffRole } from '@kringle/contracts/staff-roles';
import { clsx } from 'clsx';
import { useEffect, useId, useRef, useState, useSyncExternalStore } from 'react';
import { Logo } from '../../components/ui/logo';
import { BRAND_NAME } from '../../lib/env';
import { StaffAccountActions } from './staff-account-actions';
import { LABELS, pagesFor, PATHS, type Page } from './staff-nav';

/**
 * Where the role's links fit on one line beside the logo and the menu button (issue 53 item 11:
 * a manager's ten links took 345 of 844 px on a phone and wrapped at 1024). Below it the links
 * are in the menu.
 */
const NAME_HIDDEN = 'sr-only 2xl:not-sr-only';
const INLINE_FROM: Record<StaffRole, string> = {
  manager: '(min-width: 1280px)',
  support: '(min-width: 768px)',
  set: '(min-width: 768px)',
};

/** Whether a media query matches, kept current; without matchMedia (jsdom) the wide layout. */
function useMedia(query: string): boolean {
  return useSyncExternalStore(
    (notify) => {
      if (typeof window.matchMedia !== 'function') return () => {};
      const list = window.matchMedia(query);
      list.addEventListener('change', notify);
      return () => list.removeEventListener('change', notify);
    },
    () => (typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : true),
  );
}

function NavLinks({
  role,
  page,
  go,
  stacked,
}: {
  role: StaffRole;
  page: Page;
  go: (p: Page) => void;
  stacked?: boolean;
}) {
  return (
    <nav aria-label="Staff" className={clsx('flex', stacked ? 'flex-col gap-1' : 'flex-nowrap')}>
      {pagesFor(role).map((p) => (
        <a
          key={p}
          href={PATHS[p]}
          aria-current={page === p ? 'page' : undefined}
          onClick={(e) => {
            e.preventDefault();
            go(p);
          }}
          className={clsx(
            // A manager's fourteen on one line from 1280 px: a tighter padding and 14 px type below 1536 px, the 44 px
            // height kept.
            'inline-flex min-h-11 items-center whitespace-nowrap rounded-lg font-semibold',
            stacked ? 'px-3' : 'px-1.5',
            !stacked && role === 'manager' && 'text-sm 2xl:text-base',
            page === p ? 'bg-cream-50 text-pine-800' : 'text-cream-50 hover:bg-pine-700',
          )}
        >
          {LABELS[p]}
        </a>
      ))}
    </nav>
  );
}

/**
 * The staff app's header: one line at every width. The logo, the role's pages where they fit,
 * and a Menu button (aria-expanded, aria-controls) opening the pages that do not fit and the
 * account's actions. Opening moves focus into the menu; Escape, a click outside or focus leaving
 * it closes it, Escape returning focus to the button; choosing a page moves focus to the page.
 */
export function StaffHeader({
  role,
  page,
  go,
  email,
  onEnrol,
}: {
  role: StaffRole;
  page: Page;
  go: (p: Page) => void;
  email: string;
  onEnrol?: () => void;
}) {
  const inline = useMedia(INLINE_FROM[role]);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const panel = useRef<HTMLDivElement>(null);
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    panel.current?.querySelector<HTMLElement>('a, button')?.focus();
    const outside = (e: PointerEvent) => {
      if (!box.current?.contains(e.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', outside);
    return () => document.removeEventListener('pointerdown', outside);
  }, [open]);

  const close = (focusButton: boolean) => {
    setOpen(false);
    if (focusButton) button.current?.focus();
  };
  const goFromMenu = (p: Page) => {
    setOpen(false);
    go(p);
    // The page's content, not the closed menu, is where a keyboard or screen reader user goes on.
    requestAnimationFrame(() => document.querySelector<HTMLElement>('main')?.focus());
  };

  return (
    <header className="bg-pine-800 text-cream-50" data-print="hide">
      <div ref={box} className="relative mx-auto flex max-w-7xl items-center gap-x-3 px-4 py-2">
        <div className="flex min-w-0 shrink-0 items-center gap-2">
          <Logo brandName={BRAND_NAME} decorative className="size-9 rounded-full bg-cream-50 p-1" />
          {/* A manager's fourteen pages fill a 1280 px line: the name is then read out, not shown, below 1536 px. */}
          <span
            className={`truncate font-display text-xl font-semibold ${inline && role === 'manager' ? NAME_HIDDEN : ''}`}
          >
            {BRAND_NAME} staff
          </span>
        </div>
        {inline && <NavLinks role={role} page={page} go={go} />}
        {!inline && <span className="hidden truncate text-cream-100 sm:inline">· {LABELS[page]}</span>}
        <button
          ref={button}
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((v) => !v)}
          className={
            'ml-auto inline-flex min-h-11 shrink-0 items-center gap-2 rounded-lg px-3 font-semibold ' +
            'text-cream-50 ring-1 ring-cream-50/60 hover:bg-pine-700'
          }
        >
          <svg
            aria-hidden="true"
            viewBox="0 0 24 24"
            className="size-5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2"
            strokeLinecap="round"
          >
            {open ? <path d="M6 6l12 12M18 6L6 18" /> : <path d="M4 7h16M4 12h16M4 17h16" />}
          </svg>
          Menu
        </button>
        <div
          ref={panel}
          id={panelId}
          hidden={!open}
          onKeyDown={(e) => {
            if (e.key === 'Escape') {
              e.stopPropagation();
              close(true);
            }
          }}
          onBlur={(e) => {
            if (open && !box.current?.contains(e.relatedTarget as Node | null) && e.relatedTarget !== null)
              setOpen(false);
          }}
          className={
            'absolute right-4 top-full z-30 mt-1 flex w-72 max-w-[calc(100vw-2rem)] flex-col gap-3 ' +
            'rounded-xl bg-pine-800 p-3 shadow-lg ring-1 ring-pine-700'
          }
        >
          {open && (
            <>
              {!inline && <NavLinks role={role} page={page} go={goFromMenu} stacked />}
              <div className={clsx(!inline && 'border-t border-pine-700 pt-3')}>
                <StaffAccountActions email={email} onEnrol={onEnrol} stacked />
              </div>
            </>
          )}
        </div>
      </div>
    </header>
  );
}
