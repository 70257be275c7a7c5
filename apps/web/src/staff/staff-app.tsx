import { localDateOf } from '@kringle/contracts/dates';
import type { StaffCatalogue } from '@kringle/contracts/staff';
import { clsx } from 'clsx';
import { useCallback, useEffect, useState } from 'react';
import { Button } from '../components/ui/button';
import { Logo } from '../components/ui/logo';
import { BRAND_NAME } from '../lib/env';
import { CheckInPage } from './check-in-page';
import { QueuePanel } from './queue-panel';
import { RunSheetPage } from './run-sheet-page';
import { SignInPage } from './sign-in-page';
import { ApiProblem } from '../lib/api-error';
import { requestJson, resumeSession, signOut, whenSignedOut, type StaffUser } from './staff-client';
import { WalkInPage } from './walk-in-page';

type Page = 'run-sheet' | 'check-in' | 'walk-in';
const PATHS: Record<Page, string> = { 'run-sheet': '/staff', 'check-in': '/staff/check-in', 'walk-in': '/staff/walk-in' };
const LABELS: Record<Page, string> = { 'run-sheet': 'Run sheet', 'check-in': 'Check in', 'walk-in': 'Walk-in' };
const pageOf = (path: string): Page => (Object.entries(PATHS).find(([, p]) => p === path.replace(/\/+$/, ''))?.[0] as Page | undefined) ?? 'run-sheet';
const LOCATION_KEY = 'kringle.staff.location';

/** The staff app at /staff (issue 19): sign-in, then the run sheet, check-in and walk-ins for one location. */
export function StaffApp() {
  const [user, setUser] = useState<StaffUser | null | undefined>(undefined);
  /** The session could not be told just now (offline, a 5xx, a 429): not a reason to sign in again. */
  const [problem, setProblem] = useState<string | null>(null);
  const resume = useCallback(() => {
    resumeSession()
      .then(setUser)
      .catch((err: unknown) => {
        if (err instanceof ApiProblem && err.code !== 'STAFF_ONLY') setProblem(err.message);
        else setUser(null);
      });
  }, []);
  useEffect(() => {
    whenSignedOut(() => setUser(null));
    resume();
  }, [resume]);
  if (problem) {
    return (
      <div className="flex flex-col items-center gap-4 p-8 text-center">
        <div role="alert" className="flex flex-col gap-1">
          <p className="font-semibold text-ink-900">Your sign-in could not be checked just now.</p>
          <p className="text-ink-700">{problem}</p>
        </div>
        <Button
          variant="secondary"
          onClick={() => {
            setProblem(null);
            resume();
          }}
        >
          Try again
        </Button>
      </div>
    );
  }
  if (user === undefined) return <p className="p-8 text-center text-ink-700">Loading…</p>;
  if (!user) return <SignInPage onSignedIn={setUser} />;
  return <SignedIn user={user} />;
}

function SignedIn({ user }: { user: StaffUser }) {
  const [page, setPage] = useState<Page>(() => pageOf(window.location.pathname));
  const [catalogue, setCatalogue] = useState<StaffCatalogue | null>(null);
  const [locationId, setLocationId] = useState<string>(() => localStorage.getItem(LOCATION_KEY) ?? '');
  const [walkInSlot, setWalkInSlot] = useState<string | null>(null);

  useEffect(() => {
    void requestJson<StaffCatalogue>('/staff/catalogue').then((c) => {
      setCatalogue(c);
      setLocationId((current) => (c.locations.some((l) => l.id === current) ? current : (c.locations[0]?.id ?? '')));
    });
    const onPop = () => setPage(pageOf(window.location.pathname));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, []);
  useEffect(() => {
    if (locationId) localStorage.setItem(LOCATION_KEY, locationId);
  }, [locationId]);
  useEffect(() => {
    document.title = `${LABELS[page]} | Staff | ${BRAND_NAME}`;
  }, [page]);

  const go = useCallback((next: Page) => {
    if (window.location.pathname !== PATHS[next]) window.history.pushState(null, '', PATHS[next]);
    setPage(next);
  }, []);
  const location = catalogue?.locations.find((l) => l.id === locationId);

  return (
    <div className="min-h-dvh">
      <header className="bg-pine-800 text-cream-50" data-print="hide">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center gap-x-6 gap-y-2 px-4 py-3">
          <div className="flex items-center gap-3">
            <Logo brandName={BRAND_NAME} decorative className="size-9 rounded-full bg-cream-50 p-1" />
            <span className="font-display text-xl font-semibold">{BRAND_NAME} staff</span>
          </div>
          <nav aria-label="Staff" className="flex gap-1">
            {(Object.keys(PATHS) as Page[]).map((p) => (
              <a
                key={p}
                href={PATHS[p]}
                aria-current={page === p ? 'page' : undefined}
                onClick={(e) => {
                  e.preventDefault();
                  go(p);
                }}
                className={clsx('inline-flex min-h-11 items-center rounded-lg px-4 font-semibold', page === p ? 'bg-cream-50 text-pine-800' : 'text-cream-50 hover:bg-pine-700')}
              >
                {LABELS[p]}
              </a>
            ))}
          </nav>
          <div className="ml-auto flex items-center gap-3">
            <span className="text-sm">{user.email}</span>
            <Button variant="secondary" onClick={() => void signOut()}>
              Sign out
            </Button>
          </div>
        </div>
      </header>
      <main className="mx-auto max-w-6xl px-4 py-5">
        <div className="mb-4 flex flex-wrap items-end gap-4" data-print="hide">
          <label className="flex flex-col gap-1 text-sm font-semibold">
            Location
            <select className="min-h-11 rounded-lg border border-cream-300 bg-cream-50 px-3 text-base font-normal" value={locationId} onChange={(e) => setLocationId(e.target.value)}>
              {catalogue?.locations.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
          </label>
        </div>
        {locationId && <QueuePanel locationId={locationId} />}
        {location && catalogue ? (
          page === 'run-sheet' ? (
            <RunSheetPage
              location={location}
              onSellWalkIn={(slotId) => {
                setWalkInSlot(slotId);
                go('walk-in');
              }}
            />
          ) : page === 'check-in' ? (
            <CheckInPage location={location} />
          ) : (
            <WalkInPage location={location} catalogue={catalogue} initialSlotId={walkInSlot} today={localDateOf(new Date(), location.timezone)} />
          )
        ) : (
          <p className="text-ink-700">Loading…</p>
        )}
      </main>
    </div>
  );
}
