import type { ClosurePreview, ClosureRemedy } from '@kringle/contracts/closures';
import { formatClockTime, formatSessionTime } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';

const STATUS_LABELS = { completed: 'Paid', payment_pending: 'Paying now', payment_failed: 'Payment failed' } as const;

/** The dry run: what closing would do, before anything changes. */
export function ClosurePreviewList({
  preview,
  timezone,
  remedy,
}: {
  preview: ClosurePreview;
  timezone: string;
  remedy: ClosureRemedy;
}) {
  const { sessions, bookings, alternatives } = preview;
  return (
    <section
      aria-labelledby="closure-preview-h"
      className="flex flex-col gap-3 rounded-xl border border-cream-300 bg-cream-50 p-4"
    >
      <h2 id="closure-preview-h" className="font-display text-xl font-semibold">
        What this closes
      </h2>
      <p>
        {sessions.length} {sessions.length === 1 ? 'session' : 'sessions'}
        {sessions.length > 0 &&
          `, ${formatSessionTime(sessions[0]!.startAt, timezone)} to ` +
            `${formatClockTime(sessions.at(-1)!.endAt, timezone)}`}
        ; {bookings.length} {bookings.length === 1 ? 'family' : 'families'} booked;{' '}
        {formatAud(preview.refundTotalCents)} paid
        {remedy === 'refund'
          ? ' to refund.'
          : remedy === 'credit'
            ? ` to turn into account credit, with ${preview.creditBonusPercent}% more on top ` +
              `(${formatAud(bonusCents(bookings, preview.creditBonusPercent))}).`
            : ' (refunded to each family who takes the refund).'}
      </p>
      {bookings.length > 0 && (
        <ul className="grid gap-1 text-sm sm:grid-cols-2" aria-label="Bookings affected">
          {bookings.map((b) => (
            <li key={b.bookingId} className="flex justify-between gap-3 rounded-lg border border-cream-200 px-3 py-2">
              <span className="font-mono">{b.reference}</span>
              <span>
                {STATUS_LABELS[b.status]}, {formatAud(b.paidCents)}
              </span>
            </li>
          ))}
        </ul>
      )}
      <h3 className="font-semibold">Free sessions nearby</h3>
      {alternatives.length === 0 ? (
        <p className="text-sm text-ink-700">None: families offered a move would be refunded instead.</p>
      ) : (
        <ul className="flex flex-col gap-1 text-sm" aria-label="Free sessions nearby">
          {alternatives.map((a) => (
            <li key={a.slotId}>
              {formatSessionTime(a.startAt, timezone)}, {a.slotTypeName}, {a.locationName}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** The credit remedy's bonus: each family's rounded to the cent on its own, as the API gives it. */
const bonusCents = (bookings: { paidCents: number }[], percent: number) =>
  bookings.reduce((n, b) => n + Math.round((b.paidCents * percent) / 100), 0);
