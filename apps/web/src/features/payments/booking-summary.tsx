import type { Booking } from '@kringle/contracts/bookings';
import { formatSessionTime } from '@kringle/contracts/dates';
import { donationLabel } from '@kringle/contracts/donations';
import { formatAud, gstOf } from '@kringle/contracts/money';

/** A booking's details as a family reads them: where, when (in the location's time), what, how much. */
export function BookingSummary({ booking, voucherCents = 0 }: { booking: Booking; voucherCents?: number }) {
  // The amount is what was paid: a promo code's cents off are the difference from the items (decision 0106);
  // a donation is in it too, outside GST (decision 0109).
  const goodsPaidCents = booking.amountCents - booking.donationCents;
  const offCents = booking.items.reduce((sum, item) => sum + item.totalCents, 0) - goodsPaidCents;
  return (
    <div className="flex flex-col gap-4 text-left">
      <dl className="grid gap-x-6 gap-y-3 sm:grid-cols-2">
        <div>
          <dt className="text-sm text-ink-600">Booking reference</dt>
          <dd className="font-mono text-xl font-semibold tracking-wide text-ink-900" data-testid="booking-reference">
            {booking.reference}
          </dd>
        </div>
        <div>
          <dt className="text-sm text-ink-600">Session</dt>
          <dd className="font-semibold text-ink-900" data-testid="booking-session">
            {formatSessionTime(booking.slot.startAt, booking.location.timezone)}
          </dd>
          <dd className="text-sm text-ink-700">{booking.slotType.name}</dd>
        </div>
        <div className="sm:col-span-2">
          <dt className="text-sm text-ink-600">Location</dt>
          <dd className="font-semibold text-ink-900">{booking.location.name}</dd>
          <dd className="text-sm text-ink-700">{booking.location.address}</dd>
        </div>
      </dl>
      <div className="rounded-xl border border-cream-300 bg-cream-100 p-3">
        <ul className="flex flex-col divide-y divide-cream-200">
          {booking.items.map((item) => (
            <li key={item.id} className="flex justify-between gap-3 py-1.5">
              <span className="text-ink-900">
                {item.quantity} × {item.name}
              </span>
              <span className="shrink-0 tabular-nums">{formatAud(item.totalCents)}</span>
            </li>
          ))}
        </ul>
        <dl className="mt-1 flex flex-col gap-0.5 border-t-2 border-cream-300 pt-2">
          {offCents > 0 && (
            <div className="flex justify-between font-medium text-pine-800">
              <dt>Discount</dt>
              <dd className="tabular-nums">−{formatAud(offCents)}</dd>
            </div>
          )}
          {booking.donationCents > 0 && (
            <div className="flex justify-between gap-3 text-ink-900" data-testid="booking-donation">
              <dt>{booking.donationTo ? donationLabel(booking.donationTo) : 'Donation (no GST)'}</dt>
              <dd className="shrink-0 tabular-nums">{formatAud(booking.donationCents)}</dd>
            </div>
          )}
          <div className="flex justify-between text-sm text-ink-600">
            <dt>GST included</dt>
            <dd className="tabular-nums">{formatAud(gstOf(goodsPaidCents))}</dd>
          </div>
          <div className="flex justify-between text-lg font-semibold text-ink-900">
            <dt>Total paid (AUD)</dt>
            <dd className="tabular-nums" data-testid="booking-total">
              {formatAud(booking.amountCents)}
            </dd>
          </div>
          {voucherCents > 0 && (
            <div className="flex justify-between text-sm text-ink-700" data-testid="booking-vouchers">
              <dt>Of which paid with gift vouchers</dt>
              <dd className="tabular-nums">{formatAud(voucherCents)}</dd>
            </div>
          )}
          {booking.creditCents > 0 && (
            <div className="flex justify-between text-sm text-ink-700" data-testid="booking-credit">
              <dt>Of which paid with account credit</dt>
              <dd className="tabular-nums">{formatAud(booking.creditCents)}</dd>
            </div>
          )}
        </dl>
      </div>
    </div>
  );
}
