import { startTransition, useEffect, useRef, useState } from 'react';
import type { Booking } from '@kringle/contracts/bookings';
import type { PolicyRules } from '@kringle/contracts/policy';
import { Button } from '../../components/ui/button';
import { CalendarIcon } from '../../components/ui/icons';
import type { ApiError } from '../../lib/api-error';
import { useBookingListInfiniteQuery, useBookingOrdersQuery, type BookingTab } from './api';
import { canEditDetails, EditDetailsButton } from '../../components/whos-coming/edit-details-dialog';
import { BookingCard, isToday, type CardAction } from './booking-card';
import { ClosureOffer } from './closure-offer';
import { toastError } from '../../lib/deferred-toast';
import { mayHavePhotos, PhotosButton } from './photos/photos-button';
import { offersWallet, WalletButtons } from '../../components/wallet/wallet-buttons';

export interface BookingListProps {
  tab: BookingTab;
  busy: { bookingId: string; action: CardAction } | null;
  onAction: (action: CardAction, booking: Booking) => void;
  onBookNow: () => void;
  /** The policy in force, for the cards' deadlines. */
  policy?: PolicyRules;
}

/** Only paid or once-paid bookings can have receipts, so only they ask for their orders. */
const HAS_ORDERS = new Set<Booking['status']>(['completed', 'cancelled']);
const REFUND_POLL_MS = 15_000;

function CardWithOrders({
  booking,
  tab,
  busy,
  onAction,
  policy,
}: Omit<BookingListProps, 'onBookNow'> & { booking: Booking }) {
  // While a refund is on its way, look again now and then: the card then offers its receipt.
  const [refundOwed, setRefundOwed] = useState(false);
  const orders = useBookingOrdersQuery(booking.id, {
    skip: !HAS_ORDERS.has(booking.status),
    pollingInterval: refundOwed ? REFUND_POLL_MS : 0,
    skipPollingIfUnfocused: true,
  });
  const owed = orders.data?.some((o) => o.refundPendingCents > 0) ?? false;
  if (owed !== refundOwed) setRefundOwed(owed);
  return (
    <BookingCard
      booking={booking}
      tab={tab}
      orders={orders.data}
      busy={busy?.bookingId === booking.id ? busy.action : null}
      onAction={onAction}
      editDetails={canEditDetails(booking) ? <EditDetailsButton booking={booking} /> : undefined}
      policy={policy}
      closure={booking.closure ? <ClosureOffer booking={booking} /> : undefined}
      photos={mayHavePhotos(booking) ? <PhotosButton booking={booking} /> : undefined}
      wallet={offersWallet(booking) ? <WalletButtons booking={booking} /> : undefined}
    />
  );
}

function SkeletonCards() {
  return (
    <div role="status" aria-live="polite" className="flex flex-col gap-4">
      <span className="sr-only">Loading your bookings</span>
      {[0, 1].map((n) => (
        <div
          key={n}
          aria-hidden="true"
          className="flex animate-pulse flex-col gap-3 rounded-2xl border border-cream-300 bg-cream-50 p-5"
        >
          <div className="h-7 w-32 rounded-full bg-cream-200" />
          <div className="h-6 w-3/4 rounded bg-cream-200" />
          <div className="h-4 w-1/2 rounded bg-cream-200" />
          <div className="h-16 rounded-xl bg-cream-200" />
          <div className="h-11 w-full rounded-xl bg-cream-200 sm:w-40" />
        </div>
      ))}
    </div>
  );
}

function EmptyState({ tab, onBookNow }: { tab: BookingTab; onBookNow: () => void }) {
  return (
    <div
      className={
        'flex flex-col items-center gap-4 rounded-2xl border border-dashed border-cream-300 bg-cream-50 ' +
        'px-6 py-10 text-center'
      }
    >
      <span
        aria-hidden="true"
        className="flex size-14 items-center justify-center rounded-full bg-cream-200 text-festive-700"
      >
        <CalendarIcon />
      </span>
      {tab === 'upcoming' ? (
        <>
          <p className="max-w-md text-lg font-semibold text-ink-900">No upcoming visits with Santa yet.</p>
          <p className="max-w-md leading-relaxed text-ink-700">
            Choose a place and a time that suits your family. We hold your session while you book.
          </p>
          <Button onClick={onBookNow} className="w-full sm:w-auto sm:min-w-40">
            Book a session
          </Button>
        </>
      ) : (
        <>
          <p className="max-w-md text-lg font-semibold text-ink-900">Nothing here yet.</p>
          <p className="max-w-md leading-relaxed text-ink-700">
            Sessions you have been to, and any bookings you cancel, will show here with their receipts.
          </p>
        </>
      )}
    </div>
  );
}

/**
 * Cards rendered first. A card is taller than a phone's screen below the page's header, so the
 * others start below the fold there and follow after the next frame.
 */
const FIRST_CARDS = 1;

/**
 * How many cards to render: none in the update that brings the data (the skeletons stay), the
 * first ones in a transition, the rest in another after the next frame. The data arrives with
 * the page's other answers in one store update; rendering the cards in it made one long task
 * on a phone, while a transition's render yields to the browser every few milliseconds
 * (decision 0036, Since: /bookings).
 */
function useCardsShown(total: number): number {
  // Data already in the cache at mount (a tab opened again) renders at once, as before.
  const [stage, setStage] = useState<'none' | 'first' | 'all'>(() => (total > 0 ? 'all' : 'none'));
  const pending = total > 0 && (stage === 'none' || (stage === 'first' && total > FIRST_CARDS));
  useEffect(() => {
    if (!pending) return;
    if (stage === 'none') {
      startTransition(() => setStage('first'));
      return;
    }
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => {
      timer = setTimeout(() => startTransition(() => setStage('all')), 0);
    });
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, [pending, stage]);
  return stage === 'all' ? total : stage === 'first' ? Math.min(total, FIRST_CARDS) : 0;
}

/**
 * Today's visit first (issue 53 item 13: its check-in code is what the family opens the page for
 * at the set), then what waits on the family (issue 37 item 7): a booking waiting to be paid (its
 * hold running, minutes), then a closed session's replacement waiting for an answer (hours); the
 * rest keep the API's order. (Waitlist offers are above the list already, offers first.)
 */
export function needsActionFirst(bookings: Booking[], now = Date.now()): Booking[] {
  const rank = (b: Booking) => {
    if (b.status === 'completed' && b.checkInCode && isToday(b, new Date(now))) return 0;
    if (b.status === 'payment_pending' || b.status === 'payment_failed') return 1;
    if (b.status === 'completed' && b.closure?.offer && Date.parse(b.closure.offer.expiresAt) > now) return 2;
    return 3;
  };
  return [0, 1, 2, 3].flatMap((r) => bookings.filter((b) => rank(b) === r));
}

/** One tab's bookings: skeletons while loading, a helpful empty state, pages joined with Load more. */
export function BookingList({ tab, busy, onAction, onBookNow, policy }: BookingListProps) {
  const query = useBookingListInfiniteQuery(tab);
  const bookings = needsActionFirst(query.data?.pages.flatMap((page) => page.items) ?? []);
  const error = query.error as ApiError | undefined;
  const toasted = useRef<unknown>(null);
  const shown = useCardsShown(bookings.length);

  // Errors are toasts (once per failure); the inline retry stays for a calm way back.
  useEffect(() => {
    if (!error || toasted.current === error) return;
    toasted.current = error;
    // 429s are already toasted by the base query.
    if (error.status !== 429) void toastError(error.data?.error ?? 'We could not load your bookings.');
  }, [error]);

  // Also while the first card is being rendered: the skeletons hold its place.
  if (query.isLoading || (bookings.length > 0 && shown === 0)) return <SkeletonCards />;
  if (query.isError && bookings.length === 0) {
    return (
      <div className="flex flex-col items-start gap-3 rounded-2xl border border-cream-300 bg-cream-50 p-5">
        <p className="text-ink-900">We could not load your bookings just now.</p>
        <Button variant="secondary" onClick={() => void query.refetch()}>
          Try again
        </Button>
      </div>
    );
  }
  if (bookings.length === 0) return <EmptyState tab={tab} onBookNow={onBookNow} />;

  return (
    <div className="flex flex-col gap-4">
      {/* Busy until every card is in, so a screen reader does not read a list that is still growing. */}
      <ul className="flex flex-col gap-4" aria-busy={query.isFetching || shown < bookings.length}>
        {bookings.slice(0, shown).map((booking) => (
          <li key={booking.id}>
            <CardWithOrders booking={booking} tab={tab} busy={busy} onAction={onAction} policy={policy} />
          </li>
        ))}
      </ul>
      {/* After the last card, not under the first one for a frame. */}
      {query.hasNextPage && shown === bookings.length && (
        <Button
          variant="secondary"
          className="self-center"
          disabled={query.isFetchingNextPage}
          onClick={() => void query.fetchNextPage()}
        >
          {query.isFetchingNextPage ? 'Loading…' : 'Load more bookings'}
        </Button>
      )}
    </div>
  );
}
