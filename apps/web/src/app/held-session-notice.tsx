import { formatClockTime, formatSessionTime, zoneAbbreviation } from '@kringle/contracts/dates';
import { Button } from '../components/ui/button';
import { ClockIcon } from '../components/ui/icons';
import { useGetSlotQuery } from '../features/booking-wizard/api';
import { usePassed } from '../lib/use-passed';
import { resumeLiveHold, useLiveHold } from '../features/booking-wizard/hold/resume-hold';
import { useAppDispatch, useAppSelector } from './hooks';

/**
 * On My Bookings, a session still held by the booking wizard (the browser's Back left the wizard,
 * or another tab holds it): which, until when, and the way back. Not once it is being paid (its
 * card says so) or has ended, and not for a reschedule's hold.
 */
export function HeldSessionNotice({ onResume }: { onResume: () => void }) {
  const hold = useAppSelector((s) => s.booking.reservationData);
  const location = useAppSelector((s) => s.booking.location);
  const paying = useAppSelector((s) => s.booking.checkoutData !== null || s.booking.rescheduleData !== null);
  const slot = useGetSlotQuery(
    { locationId: location?.id ?? '', slotId: hold?.slotId ?? '' },
    { skip: !hold || !location || paying },
  ).currentData;
  const ended = usePassed(hold?.expiresAt);
  // Taken on another device (or before this sign-in): the server's live hold, resumed on Continue.
  const remote = useLiveHold(Boolean(hold) || paying);
  const dispatch = useAppDispatch();
  if (!hold && remote && remote.hold.status === 'active') {
    const tz = remote.location.timezone;
    return (
      <div
        role="status"
        data-testid="held-session"
        className="flex flex-wrap items-center gap-3 rounded-2xl border border-gold-400 bg-gold-300/25 p-4 text-ink-900"
      >
        <ClockIcon aria-hidden="true" className="size-5 shrink-0 text-festive-700" />
        <p className="min-w-0 flex-1">
          <span className="font-semibold">You are holding {remote.when}</span> at {remote.location.name} until{' '}
          {formatClockTime(remote.hold.expiresAt, tz)} {zoneAbbreviation(new Date(remote.hold.expiresAt), tz)}. Finish
          booking to make it yours.
        </p>
        <Button
          onClick={() => {
            resumeLiveHold(dispatch, remote);
            onResume();
          }}
          className="w-full sm:w-auto"
        >
          Continue booking
        </Button>
      </div>
    );
  }
  if (!hold || !location || paying || ended) return null;
  const tz = location.timezone;
  return (
    <div
      role="status"
      data-testid="held-session"
      className="flex flex-wrap items-center gap-3 rounded-2xl border border-gold-400 bg-gold-300/25 p-4 text-ink-900"
    >
      <ClockIcon aria-hidden="true" className="size-5 shrink-0 text-festive-700" />
      <p className="min-w-0 flex-1">
        <span className="font-semibold">
          You are holding {slot ? formatSessionTime(slot.startAt, tz) : 'a session'}
        </span>{' '}
        at {location.name} until {formatClockTime(hold.expiresAt, tz)} {zoneAbbreviation(new Date(hold.expiresAt), tz)}.
        Finish booking to make it yours.
      </p>
      <Button onClick={onResume} className="w-full sm:w-auto">
        Continue booking
      </Button>
    </div>
  );
}
