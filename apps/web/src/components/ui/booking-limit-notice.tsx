import type { Booking } from '@kringle/contracts/bookings';

/** Bookings that count towards the per-account limit (the API's live statuses, still ahead). */
export function countsTowardsLimit(
  booking: Pick<Booking, 'status'> & { slot: { startAt: string } },
  now = Date.now(),
): boolean {
  return (
    (booking.status === 'completed' || booking.status === 'payment_pending') && Date.parse(booking.slot.startAt) > now
  );
}

/**
 * Said up front when the family is at the upcoming-bookings limit (issue 37 item 6): on the
 * wizard's first step and on My Bookings, before a time is picked only to be refused.
 */
export function BookingLimitNotice({ count, max }: { count: number; max: number | undefined }) {
  if (max === undefined || count < max) return null;
  return (
    <p
      role="status"
      data-testid="booking-limit"
      className="rounded-2xl border border-gold-400 bg-gold-300/25 p-4 text-ink-900"
    >
      <span className="font-semibold">
        You have {max} upcoming {max === 1 ? 'booking' : 'bookings'}, the most one account can hold.
      </span>{' '}
      To book another, cancel one of them or contact us.
    </p>
  );
}
