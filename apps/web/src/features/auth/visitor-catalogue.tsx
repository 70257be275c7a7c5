import { useEffect, useId, useState } from 'react';
import type { PublicCatalogue } from '@kringle/contracts/public-catalogue';
import { API_BASE_URL } from '../../lib/env';

type CatalogueLocation = PublicCatalogue['locations'][number];

/**
 * One read per page load however often /login and /register swap: the answer is the same for
 * every visitor (and the browser caches it, Cache-Control and ETag). A plain fetch: the route
 * needs no app check or token, and the /login bundle stays as small as it was (bench/budgets).
 */
let request: Promise<PublicCatalogue | null> | null = null;
export function loadVisitorCatalogue(fetchFn: typeof fetch = (...a) => fetch(...a)): Promise<PublicCatalogue | null> {
  request ??= fetchFn(`${API_BASE_URL.replace(/\/$/, '')}/common/catalogue`, { credentials: 'omit' })
    .then((r) => (r.ok ? (r.json() as Promise<PublicCatalogue>) : null))
    .catch(() => null)
    .then((body) => {
      // A failed read is tried again on the next visit to the page, not remembered.
      if (!body) request = null;
      return body;
    });
  return request;
}

/** Test seam: forget the remembered answer. */
export function forgetVisitorCatalogue(): void {
  request = null;
}

// Not contracts/money's formatAud: the bundler keeps it in the signed-in app's shared chunk, and
// importing it here put 6 kB more on /login (bench/budgets). The same en-AU dollars.
const aud = new Intl.NumberFormat('en-AU', { style: 'currency', currency: 'AUD' });
const formatAud = (cents: number) => aud.format(cents / 100);

// Season dates are calendar dates: shown as written, whatever the visitor's zone.
const dayFormat = new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const seasonDates = (l: CatalogueLocation) =>
  dayFormat.formatRange(new Date(`${l.seasonStart}T00:00:00Z`), new Date(`${l.seasonEnd}T00:00:00Z`));
const opening = (l: CatalogueLocation) =>
  new Intl.DateTimeFormat('en-AU', {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    hour: 'numeric',
    minute: '2-digit',
    timeZone: l.timezone,
    timeZoneName: 'short',
  }).format(new Date(l.salesOpenAt!));

/**
 * What can be booked, for a visitor on /login and /register (issue 53): every other page needs
 * an account (spec), so this is the first look at the season. AuthLayout puts it after the form,
 * so on a phone the form stays where the visitor lands; nothing at all when the read fails (it is
 * a bonus, not the page).
 */
export function VisitorCatalogue({ fetchFn }: { fetchFn?: typeof fetch }) {
  const id = useId();
  // With the moment it arrived: an opening still ahead then is said as one.
  const [loaded, setLoaded] = useState<{ catalogue: PublicCatalogue; at: number } | 'pending' | 'failed'>('pending');
  useEffect(() => {
    let live = true;
    void loadVisitorCatalogue(fetchFn).then((body) => {
      if (live) setLoaded(body ? { catalogue: body, at: Date.now() } : 'failed');
    });
    return () => {
      live = false;
    };
  }, [fetchFn]);
  // While the read is on its way, its place is kept (below the form, where a phone's first screen
  // ends): without it the footer sat at the screen's foot and jumped when the list came, a layout
  // shift of 0.053 on /login (Lighthouse's CLS, bench/budgets). Beside the form (lg) nothing moves.
  if (loaded === 'pending') return <div aria-hidden="true" className="min-h-[60dvh] w-full lg:hidden" />;
  if (loaded === 'failed') return null;
  const open = loaded.catalogue.locations.filter((l) => l.slotTypes.length > 0);
  return (
    <section
      aria-labelledby={id}
      className="flex w-full flex-col gap-3 rounded-3xl border border-cream-200 bg-cream-50 p-5 sm:p-6 lg:flex-1"
      data-testid="visitor-catalogue"
    >
      <h2 id={id} className="font-sans text-base font-semibold text-ink-900">
        Santa photos this season
      </h2>
      {open.length === 0 ? (
        <p className="text-sm text-ink-700">This season&apos;s sessions are over. See you next Christmas!</p>
      ) : (
        <ul className="flex flex-col gap-2">
          {open.map((l) => (
            <li key={l.id} className="rounded-2xl bg-cream-100 px-3 py-2.5 lg:px-4 lg:py-3">
              <p className="flex flex-wrap items-baseline justify-between gap-x-3">
                <span className="font-semibold text-ink-900">{l.name}</span>
                <span className="text-sm text-ink-700">{seasonDates(l)}</span>
              </p>
              {l.salesOpenAt && Date.parse(l.salesOpenAt) > loaded.at && (
                <p className="text-sm font-medium text-festive-700">Bookings open {opening(l)}</p>
              )}
              <ul className="mt-1 flex flex-col text-sm text-ink-700">
                {l.slotTypes.map((t) => (
                  <li key={t.id} className="flex justify-between gap-3">
                    <span>
                      {t.name} <span className="whitespace-nowrap">· {t.durationMinutes} min</span>
                    </span>
                    <span className="whitespace-nowrap font-semibold text-ink-900">
                      from {formatAud(t.fromPriceCents)}
                    </span>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      )}
      <p className="text-xs text-ink-700">Prices include GST. Create an account or log in to choose a time.</p>
    </section>
  );
}
