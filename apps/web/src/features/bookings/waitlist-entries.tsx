import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import type { WaitlistEntry } from '@kringle/contracts/waitlist';
import { formatClockTime, zoneAbbreviation } from '@kringle/contracts/dates';
import type { Location } from '@kringle/contracts/catalogue';
import { Button, buttonClasses } from '../../components/ui/button';
import { ClockIcon } from '../../components/ui/icons';
import { track } from '../../lib/analytics';
import { ordinal, waitlistDayName as dayName } from '../../lib/waitlist-words';
import type { ApiError } from '../../lib/api-error';
import { toastError, toastSuccess } from '../../lib/deferred-toast';
import { serverNow } from '../../lib/server-clock';
import { formatCountdown, remainingSeconds } from '../../lib/timer';
import { useGetWaitlistPlacesQuery, useGetWaitlistQuery, useLeaveWaitlistMutation } from '../../lib/waitlist-api';

/** Offers come and go while the page is open: the list is asked again this often. */
const WAITLIST_POLL_MS = 20_000;

/** Minutes and seconds left on an offer, on the server's clock (decision 0016). */
function OfferCountdown({ expiresAt, onEnd }: { expiresAt: string; onEnd: () => void }) {
  const [left, setLeft] = useState(() => remainingSeconds(expiresAt, serverNow()));
  useEffect(() => {
    const timer = setInterval(() => {
      const next = remainingSeconds(expiresAt, serverNow());
      setLeft(next);
      if (next === 0) {
        clearInterval(timer);
        onEnd();
      }
    }, 1000);
    return () => clearInterval(timer);
  }, [expiresAt, onEnd]);
  return (
    <span className="inline-flex items-center gap-1 font-semibold tabular-nums text-festive-800">
      <ClockIcon className="size-4" aria-hidden="true" />
      <span role="timer" aria-label={`${Math.ceil(left / 60)} minutes left`}>
        {formatCountdown(left)}
      </span>
    </span>
  );
}

function EntryCard({
  entry,
  place,
  onLeave,
  busy,
  onOfferEnd,
}: {
  entry: WaitlistEntry;
  place: Location | undefined;
  onLeave: () => void;
  busy: boolean;
  onOfferEnd: () => void;
}) {
  const typeName = place?.slotTypes.find((t) => t.id === entry.slotTypeId)?.name ?? 'Session';
  const zone = place?.timezone ?? 'Australia/Sydney';
  const [confirming, setConfirming] = useState(false);
  const keep = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (confirming) keep.current?.focus();
  }, [confirming]);
  return (
    <li
      className="flex flex-col gap-3 rounded-2xl border border-cream-300 bg-cream-50 p-4 shadow-sm"
      data-testid="waitlist-entry"
    >
      <div className="flex flex-col gap-0.5">
        <p className="text-lg font-semibold text-ink-900">{dayName(entry.date)}</p>
        <p className="text-ink-700">
          {typeName} at {place?.name ?? 'your location'}
        </p>
      </div>
      {entry.offer ? (
        <div className="flex flex-col gap-2 rounded-xl bg-pine-50 p-3 text-ink-900" data-testid="waitlist-offer">
          <p className="font-semibold">
            A session came free and is held for you: {formatClockTime(entry.offer.startAt, zone)}{' '}
            {zoneAbbreviation(new Date(entry.offer.startAt), zone)}.
          </p>
          <p className="flex flex-wrap items-center gap-x-2">
            Book it before the time runs out: <OfferCountdown expiresAt={entry.offer.expiresAt} onEnd={onOfferEnd} />
          </p>
          <Link
            to={`/create-booking?offer=${entry.offer.reservationId}`}
            className={buttonClasses('primary', 'self-start')}
          >
            Continue booking
          </Link>
        </div>
      ) : (
        <p className="text-ink-800">
          You are <span className="font-semibold">{ordinal(entry.position)}</span> in line. We e-mail you if a session
          comes free.
        </p>
      )}
      {confirming ? (
        // One tap gave up a place in line for good: ask first, with the safe answer focused.
        <div
          role="group"
          aria-label={`Leave the waitlist for ${dayName(entry.date)}?`}
          className="flex flex-col gap-2 rounded-xl border border-cream-300 p-3"
        >
          <p className="text-ink-900">
            {entry.offer
              ? 'Leave the waitlist? The session held for you goes to the next family in line.'
              : `Leave the waitlist? You give up your place ` +
                `(${ordinal(entry.position)} in line) and cannot get it back.`}
          </p>
          <div className="flex flex-wrap gap-2">
            <Button ref={keep} variant="secondary" onClick={() => setConfirming(false)}>
              Keep my place
            </Button>
            <Button variant="ghost" onClick={onLeave} disabled={busy} className="text-festive-800!">
              Yes, leave
            </Button>
          </div>
        </div>
      ) : (
        <Button
          variant="ghost"
          onClick={() => setConfirming(true)}
          disabled={busy}
          className="self-start"
          aria-label={`Leave the waitlist for ${dayName(entry.date)}`}
        >
          Leave the waitlist
        </Button>
      )}
    </li>
  );
}

/** My Bookings: the family's waitlist entries (issue 20), with their place in line and any open offer. */
export function WaitlistEntries() {
  const list = useGetWaitlistQuery(undefined, {
    pollingInterval: WAITLIST_POLL_MS,
    refetchOnFocus: true,
    refetchOnMountOrArgChange: true,
  });
  const places = useGetWaitlistPlacesQuery();
  const [leave, leaving] = useLeaveWaitlistMutation();
  const entries = list.data ?? [];
  if (entries.length === 0) return null;

  const leaveEntry = async (entry: WaitlistEntry) => {
    const result = await leave(entry.id);
    if ('error' in result) {
      void toastError(
        (result.error as ApiError).data?.error ?? 'We could not take you off the waitlist. Please try again.',
      );
      return;
    }
    track('waitlist_leave', {
      location_id: entry.locationId,
      session_date: entry.date,
      had_offer: entry.offer !== null,
    });
    void toastSuccess(`You have left the waitlist for ${dayName(entry.date)}.`);
  };

  return (
    <section aria-labelledby="waitlist-heading" className="flex flex-col gap-3">
      <h2 id="waitlist-heading" className="text-xl font-semibold text-ink-900">
        Waitlist
      </h2>
      <ul className="flex flex-col gap-3">
        {/* A session held for the family (an offer, minutes to claim it) comes before places in line. */}
        {[...entries.filter((e) => e.offer), ...entries.filter((e) => !e.offer)].map((entry) => (
          <EntryCard
            key={entry.id}
            entry={entry}
            place={places.data?.find((l) => l.id === entry.locationId)}
            busy={leaving.isLoading}
            onLeave={() => void leaveEntry(entry)}
            onOfferEnd={() => void list.refetch()}
          />
        ))}
      </ul>
    </section>
  );
}
