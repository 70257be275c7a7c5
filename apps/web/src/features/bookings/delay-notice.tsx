import type { Booking } from '@kringle/contracts/bookings';
import type { BookingDelay } from '@kringle/contracts/wallet';
import { formatClockTime, zoneAbbreviation } from '@kringle/contracts/dates';
import { ClockIcon } from '../../components/ui/icons';

/**
 * The set's "Santa is running late" (POST /staff/locations/{id}/delay), as the family's text and
 * e-mail said it: the delay and the new expected time in the location's zone, and the set's note.
 */
export function DelayNotice({ booking, delay }: { booking: Booking; delay: BookingDelay }) {
  const tz = booking.location.timezone;
  const at = new Date(delay.expectedStartAt);
  const expected = `${formatClockTime(at, tz)} ${zoneAbbreviation(at, tz)}`;
  return (
    <section
      aria-label={`Santa is running late, ${booking.reference}`}
      data-testid="delay-notice"
      className="flex items-start gap-2 rounded-xl border border-gold-400 bg-[#fff3e2] p-3 text-sm text-[#7a4100]"
    >
      <ClockIcon aria-hidden="true" className="mt-0.5 size-4 shrink-0" />
      <div className="flex flex-col gap-0.5">
        <p className="font-semibold">Santa is running late</p>
        <p>
          About {delay.minutes} minutes behind. Your session should now start around{' '}
          <time dateTime={delay.expectedStartAt} className="font-semibold">
            {expected}
          </time>
          .
        </p>
        {delay.message && <p>{delay.message}</p>}
      </div>
    </section>
  );
}
