import type { ReactNode } from 'react';
import { Link, Outlet, useLocation } from 'react-router';
import { Logo } from '../../components/ui/logo';
import { BRAND_NAME } from '../../lib/env';
import { VisitorCatalogue } from './visitor-catalogue';

/** Where a visitor lands (every other page needs an account): these show what can be booked (issue 53). */
const CATALOGUE_PATHS = new Set(['/login', '/register']);

/**
 * Frame of every auth page (spec §2): the 'PHOTOS WITH SANTA' header with the brand logo and
 * a card for the form. Used as a layout route (renders the matched page via <Outlet />) or
 * around `children` (the verify-email screen shown by the guard).
 */
export function AuthLayout({ children }: { children?: ReactNode }) {
  const { pathname } = useLocation();
  const catalogue = !children && CATALOGUE_PATHS.has(pathname.replace(/\/$/, ''));
  return (
    <div className="flex min-h-dvh flex-col bg-cream-100">
      <header className="bg-festive-700 text-cream-50">
        <div className="mx-auto flex max-w-5xl items-center justify-center gap-3 px-4 py-4 sm:py-5">
          <Logo brandName={BRAND_NAME} className="size-11 sm:size-12" />
          <div className="flex flex-col leading-tight">
            <span className="font-display text-xl font-semibold tracking-[0.12em] sm:text-2xl">PHOTOS WITH SANTA</span>
            <span className="text-xs font-medium tracking-[0.25em] text-gold-300">{BRAND_NAME.toUpperCase()}</span>
          </div>
        </div>
        <div className="h-1 bg-gold-400" aria-hidden="true" />
      </header>
      <main className="flex flex-1 items-start justify-center px-4 py-8 sm:items-center sm:py-12">
        {/* The form first (on a phone it is the first screen), what can be booked after it: below on a phone, beside it
           on a wide screen. */}
        <div
          className={
            catalogue ? 'flex w-full max-w-md flex-col gap-6 lg:max-w-4xl lg:flex-row lg:items-start' : 'contents'
          }
        >
          <div
            className={
              'w-full max-w-md shrink-0 rounded-3xl border border-cream-200 bg-cream-50 p-6 shadow-sm ' + 'sm:p-8'
            }
          >
            {children ?? <Outlet />}
          </div>
          {catalogue && <VisitorCatalogue />}
        </div>
      </main>
      <footer className="px-4 pb-6 text-center text-sm text-ink-600">
        <Link
          to="/terms_and_conditions"
          className="inline-flex min-h-11 items-center underline underline-offset-4 hover:text-festive-700"
        >
          Terms and Conditions
        </Link>
        <span aria-hidden="true"> · </span>
        <Link
          to="/privacy"
          className="inline-flex min-h-11 items-center underline underline-offset-4 hover:text-festive-700"
        >
          Privacy
        </Link>
      </footer>
    </div>
  );
}
