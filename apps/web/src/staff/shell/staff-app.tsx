import { localDateOf } from '@kringle/contracts/dates';
import type { StaffCatalogue } from '@kringle/contracts/staff';
import type { StaffMe } from '@kringle/contracts/staff-accounts';
import { clsx } from 'clsx';
import { lazy, Suspense, useCallback, useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { BRAND_NAME } from '../../lib/env';
import { CheckInPage } from '../check-in/check-in-page';
import { QueuePanel } from '../queue/queue-panel';
import { RunSheetPage } from '../run-sheet/run-sheet-page';
import { SignInPage } from '../session/sign-in-page';
import { ApiProblem } from '../../lib/api-error';
import { requestJson, resumeSession, signOut, whenSignedOut, type StaffUser } from '../session/staff-client';
import { WalkInPage } from '../walk-in/walk-in-page';
import { InvitePage } from '../session/invite-page';
import { MfaEnrolPage } from '../session/mfa-enrol-page';
import { LABELS, LOCATION_PAGES, pageOf, pagesFor, PATHS, startPage, type Page } from './staff-nav';
import { StaffAccountsPage } from '../accounts/staff-accounts-page';
import type { PhotoTarget } from '../photos/photos-page';
import { getMe } from '../accounts/staff-people-client';
import { StaffHeader } from './staff-header';

const LOCATION_KEY = 'kringle.staff.location';
/** The desk's pages and the season editor: each its own chunk, loaded as it opens. */
const DESK_PAGES: readonly Page[] = ['support', 'audit', 'disputes', 'vouchers', 'season'];
// The support desk and the audit page (issue 34) are their own chunk: the set's devices never load them.
const SupportPage = lazy(() => import('../support/support-page').then((m) => ({ default: m.SupportPage })));
const AuditPage = lazy(() => import('../support/audit-page').then((m) => ({ default: m.AuditPage })));
const DisputesPage = lazy(() => import('../support/disputes-page').then((m) => ({ default: m.DisputesPage })));
const VouchersPage = lazy(() => import('../support/vouchers-page').then((m) => ({ default: m.VouchersPage })));
// The season editor (issue 35) likewise: managers only.
const SeasonPage = lazy(() => import('../season/season-page').then((m) => ({ default: m.SeasonPage })));
// Closing sessions (issue 35) is a manager's rare task: its own chunk too.
const ClosuresPage = lazy(() => import('../closures/closures-page').then((m) => ({ default: m.ClosuresPage })));
// The managers' reports (issue 35) likewise, charts included.
const ReportsPage = lazy(() => import('../reports/reports-page').then((m) => ({ default: m.ReportsPage })));
// The managers' promo codes (issue 52) likewise.
const PromoCodesPage = lazy(() => import('../promos/promo-codes-page').then((m) => ({ default: m.PromoCodesPage })));
// The managers' Live page (issue 50) likewise: its stream opens only there.
const LivePage = lazy(() => import('../live/live-page').then((m) => ({ default: m.LivePage })));
// Uploading photos (issue 39) is its own chunk too: only the set and managers open it.
const PhotosPage = lazy(() => import('../photos/photos-page').then((m) => ({ default: m.PhotosPage })));

/**
 * The staff app at /staff (issue 19): sign-in, then the pages the role may see (decision 0050).
 * /staff/invite needs no session: a new member sets a password there.
 */
export function StaffApp() {
  if (window.location.pathname.replace(/\/+$/, '') === '/staff/invite')
    return <InvitePage code={new URLSearchParams(window.location.search).get('code')} />;
  return <StaffSession />;
}

function StaffSession() {
  const [user, setUser] = useState<StaffUser | null | undefined>(undefined);
  /** The session could not be told just now (offline, a 5xx, a 429): not a reason to sign in again. */
  const [problem, setProblem] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const resume = useCallback(() => {
    resumeSession()
      .then(setUser)
      .catch((err: unknown) => {
        if (err instanceof ApiProblem && err.code !== 'STAFF_ONLY') setProblem(err.message);
        else setUser(null);
      });
  }, []);
  useEffect(() => {
    whenSignedOut((how) => {
      setUser(null);
      setNotice(how === 'everywhere' ? 'You are signed out on every device.' : null);
    });
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
  if (!user) return <SignInPage onSignedIn={setUser} notice={notice} />;
  return <Staffed user={user} />;
}

/** Who the caller is to the API: a manager or support member enrols a second step before anything else. */
function Staffed({ user }: { user: StaffUser }) {
  const [me, setMe] = useState<StaffMe | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  // Set staff may add a second step (decision 0050: offered, not required).
  const [enrolling, setEnrolling] = useState(false);
  const load = useCallback(() => {
    getMe()
      .then(setMe)
      .catch((err: unknown) => setProblem(err instanceof Error ? err.message : 'Your account could not be loaded.'));
  }, []);
  useEffect(load, [load]);
  if (problem) {
    return (
      <p role="alert" className="p-8 text-center text-festive-800">
        {problem}
      </p>
    );
  }
  if (!me) return <p className="p-8 text-center text-ink-700">Loading…</p>;
  if (me.mfaRequired && !me.mfaEnrolled) return <MfaEnrolPage onEnrolled={load} onSignOut={() => void signOut()} />;
  if (enrolling) {
    const enrolled = () => {
      setEnrolling(false);
      load();
    };
    return <MfaEnrolPage onEnrolled={enrolled} onSignOut={() => void signOut()} onNotNow={() => setEnrolling(false)} />;
  }
  return <SignedIn user={user} me={me} onEnrol={me.mfaEnrolled ? undefined : () => setEnrolling(true)} />;
}

function SignedIn({ user, me, onEnrol }: { user: StaffUser; me: StaffMe; onEnrol?: () => void }) {
  const [page, setPage] = useState<Page>(() => {
    const first = startPage(window.location.pathname, me.role);
    // The address says where the app opened, so back and reload keep the page.
    if (first === 'support' && !window.location.pathname.startsWith(PATHS.support))
      window.history.replaceState(null, '', PATHS.support);
    return first;
  });
  const [catalogue, setCatalogue] = useState<StaffCatalogue | null>(null);
  const [locationId, setLocationId] = useState<string>(() => localStorage.getItem(LOCATION_KEY) ?? '');
  const [walkInSlot, setWalkInSlot] = useState<string | null>(null);
  const [photoTarget, setPhotoTarget] = useState<PhotoTarget | null>(null);

  useEffect(() => {
    void requestJson<StaffCatalogue>('/staff/catalogue').then((c) => {
      setCatalogue(c);
      setLocationId((current) => (c.locations.some((l) => l.id === current) ? current : (c.locations[0]?.id ?? '')));
    });
    const onPop = () => setPage(pageOf(window.location.pathname, me.role));
    window.addEventListener('popstate', onPop);
    return () => window.removeEventListener('popstate', onPop);
  }, [me.role]);
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
      <StaffHeader role={me.role} page={page} go={go} email={user.email} onEnrol={onEnrol} />
      <main tabIndex={-1} className="mx-auto max-w-6xl px-4 py-5 outline-none">
        <div
          className={clsx('mb-4 flex flex-wrap items-end gap-4', !LOCATION_PAGES.includes(page) && 'hidden')}
          data-print="hide"
        >
          <label className="flex flex-col gap-1 text-sm font-semibold">
            Location
            <select
              className="min-h-11 rounded-lg border border-cream-300 bg-cream-50 px-3 text-base font-normal"
              value={locationId}
              onChange={(e) => setLocationId(e.target.value)}
            >
              {catalogue?.locations.map((l) => (
                <option key={l.id} value={l.id}>
                  {l.name}
                </option>
              ))}
            </select>
          </label>
        </div>
        {/* The line before the opening minute (decision 0053): the managers' to watch and pause. */}
        {me.role === 'manager' && locationId && LOCATION_PAGES.includes(page) && (
          <QueuePanel key={locationId} locationId={locationId} opensAt={location?.queueOpensAt ?? null} />
        )}
        {page === 'live' ? (
          <Suspense fallback={<p className="text-ink-700">Loading…</p>}>
            <LivePage />
          </Suspense>
        ) : DESK_PAGES.includes(page) ? (
          <Suspense fallback={<p className="text-ink-700">Loading…</p>}>
            {page === 'support' ? (
              <SupportPage />
            ) : page === 'audit' ? (
              <AuditPage timezone={location?.timezone ?? 'Australia/Sydney'} locationName={location?.name} />
            ) : page === 'disputes' ? (
              <DisputesPage timezone={location?.timezone ?? 'Australia/Sydney'} />
            ) : page === 'vouchers' ? (
              <VouchersPage />
            ) : (
              <SeasonPage timezone={location?.timezone ?? 'Australia/Sydney'} />
            )}
          </Suspense>
        ) : page === 'reports' ? (
          catalogue ? (
            <Suspense fallback={<p className="text-ink-700">Loading…</p>}>
              <ReportsPage locations={catalogue.locations} />
            </Suspense>
          ) : (
            <p className="text-ink-700">Loading…</p>
          )
        ) : page === 'promo-codes' ? (
          catalogue ? (
            <Suspense fallback={<p className="text-ink-700">Loading…</p>}>
              <PromoCodesPage locations={catalogue.locations} timezone={location?.timezone ?? 'Australia/Sydney'} />
            </Suspense>
          ) : (
            <p className="text-ink-700">Loading…</p>
          )
        ) : page === 'closures' ? (
          catalogue ? (
            <Suspense fallback={<p className="text-ink-700">Loading…</p>}>
              <ClosuresPage locations={catalogue.locations} initialLocationId={locationId} />
            </Suspense>
          ) : (
            <p className="text-ink-700">Loading…</p>
          )
        ) : page === 'staff' ? (
          catalogue ? (
            <StaffAccountsPage locations={catalogue.locations} myId={me.id} />
          ) : (
            <p className="text-ink-700">Loading…</p>
          )
        ) : location && catalogue ? (
          page === 'run-sheet' ? (
            <RunSheetPage
              // Another location opens on its own today (its zone's date may not be this one's).
              key={location.id}
              location={location}
              onSellWalkIn={(slotId) => {
                setWalkInSlot(slotId);
                go('walk-in');
              }}
              onUploadPhotos={
                pagesFor(me.role).includes('photos')
                  ? (target) => {
                      setPhotoTarget(target);
                      go('photos');
                    }
                  : undefined
              }
              // The set's own action (and a manager's); support reads the sheet only.
              mayTellDelay={me.role === 'set' || me.role === 'manager'}
            />
          ) : page === 'check-in' ? (
            <CheckInPage location={location} />
          ) : page === 'photos' ? (
            <Suspense fallback={<p className="text-ink-700">Loading…</p>}>
              <PhotosPage location={location} target={photoTarget} onClearTarget={() => setPhotoTarget(null)} />
            </Suspense>
          ) : (
            <WalkInPage
              location={location}
              catalogue={catalogue}
              initialSlotId={walkInSlot}
              today={localDateOf(new Date(), location.timezone)}
            />
          )
        ) : (
          <p className="text-ink-700">Loading…</p>
        )}
      </main>
    </div>
  );
}
