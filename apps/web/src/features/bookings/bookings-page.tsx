import * as Tabs from '@radix-ui/react-tabs';
import { lazy, Suspense, useEffect, useState, type ReactNode } from 'react';
import { useLocation, useNavigate, useSearchParams } from 'react-router';
import { CheckIcon } from '../../components/ui/icons';
import { Button } from '../../components/ui/button';
import { useBookingListInfiniteQuery, type BookingTab } from './api';
import { BookingList } from './booking-list';
import { useBookingActions, type WizardHandoff } from './use-booking-actions';
import { useGetPolicyQuery } from '../../lib/policy-api';
import { WaitlistEntries } from './waitlist-entries';
import { CreditBalance } from './credit-balance';
import { VoucherBalances } from './voucher-balances';
import { PhotosRoute, usePhotosBookingId } from './photos/photos-route';
import { BookingLimitNotice, countsTowardsLimit } from '../../components/ui/booking-limit-notice';

// Radix Dialog loads when a family first asks to cancel, not with the list (decision 0036).
const CancelDialog = lazy(() => import('./cancel-dialog').then((m) => ({ default: m.CancelDialog })));

const TABS: { value: BookingTab; label: string }[] = [
  { value: 'upcoming', label: 'Upcoming' },
  { value: 'past', label: 'Past' },
];

const tabClasses =
  'min-h-11 flex-1 rounded-lg px-4 text-base font-semibold text-ink-700 transition-colors hover:text-ink-900 ' +
  'data-[state=active]:bg-cream-50 data-[state=active]:text-festive-700 data-[state=active]:shadow-sm sm:flex-none ' +
  'sm:min-w-32';

export interface BookingsPageProps extends WizardHandoff {
  /** Starts a new booking in the wizard. */
  onBookNow: () => void;
  /** What the wizard still holds, if anything (the route joins the two features). */
  heldSession?: ReactNode;
}

/** What a reschedule hands back to this page (router state), for its success message. */
interface MoveSummary {
  reference: string;
  from: string | null;
  to: string;
  movesUsed: number;
}

function MovedNotice({ moved, onDismiss }: { moved: MoveSummary; onDismiss: () => void }) {
  const policy = useGetPolicyQuery().data;
  return (
    <div
      role="status"
      data-testid="moved-notice"
      className="flex items-start gap-3 rounded-2xl border border-pine-600/30 bg-pine-50 p-4 text-ink-900"
    >
      <span
        aria-hidden="true"
        className="mt-0.5 flex size-7 shrink-0 items-center justify-center rounded-full bg-pine-700 text-cream-50"
      >
        <CheckIcon className="size-4" />
      </span>
      <div className="flex flex-1 flex-col gap-1">
        <p className="font-semibold">Booking {moved.reference} has moved</p>
        <p>
          {moved.from && <span className="text-ink-600 line-through decoration-ink-600/60">{moved.from}</span>}
          {moved.from && ' → '}
          <span className="font-semibold">{moved.to}</span>
        </p>
        <p className="text-sm text-ink-700">
          {policy ? `${moved.movesUsed} of ${policy.rescheduleLimit} free moves used. ` : ''}We have emailed you the new
          time and a calendar file.
        </p>
      </div>
      <button
        type="button"
        onClick={onDismiss}
        className="min-h-11 rounded-lg px-3 text-sm font-semibold text-pine-800 hover:bg-pine-600/10"
      >
        Dismiss
      </button>
    </div>
  );
}

/**
 * /bookings (My Bookings): upcoming and past tabs (spec §2). The tab lives in the address
 * (?tab=past) so Back and a reload land on the same list. /bookings/:id/photos is the same page with that booking's
 * gallery open over it.
 */
export function BookingsPage({ onBookNow, onReschedule, onContinuePayment, heldSession }: BookingsPageProps) {
  const [params, setParams] = useSearchParams();
  const tab: BookingTab = params.get('tab') === 'past' ? 'past' : 'upcoming';
  const actions = useBookingActions({ onReschedule, onContinuePayment });
  const photosOf = usePhotosBookingId();
  const policy = useGetPolicyQuery().data;
  const location = useLocation();
  const navigate = useNavigate();
  const routed = (location.state as { moved?: MoveSummary } | null)?.moved ?? null;
  const [moved, setMoved] = useState(routed);
  // Shown once, then taken out of the history entry: a reload or Back would bring back a move that
  // may since have changed (another tab moved the booking again).
  useEffect(() => {
    if (routed) void navigate({ pathname: location.pathname, search: location.search }, { replace: true, state: null });
  }, [routed, location.pathname, location.search, navigate]);
  // The same (cached) list the Upcoming tab shows: when it is empty, its empty state carries the one Book button.
  const upcoming = useBookingListInfiniteQuery('upcoming', { skip: tab !== 'upcoming' });
  const upcomingEmpty =
    tab === 'upcoming' && upcoming.isSuccess && upcoming.data.pages.every((p) => p.items.length === 0);
  const upcomingCount = upcoming.data?.pages.flatMap((p) => p.items).filter((b) => countsTowardsLimit(b)).length ?? 0;

  const selectTab = (value: string) => setParams(value === 'past' ? { tab: 'past' } : {}, { replace: true });

  return (
    <section className="mx-auto flex w-full max-w-3xl flex-col gap-5 px-4 py-6 sm:px-8 sm:py-10">
      <header className="flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
        <div className="flex flex-col gap-1">
          <h1 className="text-3xl font-semibold text-ink-900 sm:text-4xl">My Bookings</h1>
          <p className="text-ink-700">Your visits with Santa. Times are shown in each location&apos;s local time.</p>
        </div>
        {/* Secondary: on this page the bookings come first. Hidden while the empty state offers the same action. */}
        {!upcomingEmpty && (
          <Button variant="secondary" onClick={onBookNow} className="w-full shrink-0 sm:w-auto">
            Book a session
          </Button>
        )}
      </header>

      {moved && <MovedNotice moved={moved} onDismiss={() => setMoved(null)} />}
      {heldSession}
      <BookingLimitNotice count={upcomingCount} max={policy?.maxUpcomingBookings} />
      {/* Side by side when both show; each takes the width alone. */}
      <div className="flex flex-wrap gap-3 empty:hidden [&>*]:min-w-64 [&>*]:flex-1">
        <CreditBalance />
        <VoucherBalances />
      </div>

      <WaitlistEntries />

      <Tabs.Root value={tab} onValueChange={selectTab} className="flex flex-col gap-4">
        <Tabs.List aria-label="Bookings" className="flex gap-1 self-stretch rounded-xl bg-cream-200 p-1 sm:self-start">
          {TABS.map((t) => (
            <Tabs.Trigger key={t.value} value={t.value} className={tabClasses}>
              {t.label}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {TABS.map((t) => (
          <Tabs.Content key={t.value} value={t.value} className="focus-visible:outline-offset-4">
            <h2 className="sr-only">{t.label} bookings</h2>
            {/* Only the open tab mounts its list, so the other tab loads when first opened. */}
            {tab === t.value && (
              <BookingList
                tab={t.value}
                busy={actions.busy}
                onAction={actions.onAction}
                onBookNow={onBookNow}
                policy={policy}
              />
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>

      {photosOf && <PhotosRoute bookingId={photosOf} />}
      {actions.cancelling && (
        <Suspense fallback={null}>
          <CancelDialog
            booking={actions.cancelling}
            open
            busy={actions.cancelBusy}
            onOpenChange={(open) => !open && actions.closeCancel()}
            onConfirm={actions.confirmCancel}
            onCloseAutoFocus={actions.afterCancelClosed}
          />
        </Suspense>
      )}
    </section>
  );
}
