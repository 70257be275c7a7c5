import { accessSummary } from '@kringle/contracts/access-needs';
import type { BookingDetails } from '@kringle/contracts/booking-details';

/**
 * Who's coming on a booking's card and detail: first names with ages, counts, needs. `inline`:
 * one run of text (the booking card on a phone, issue 53 item 13), not a row per kind.
 */
export function DetailsSummary({ details, inline = false }: { details: BookingDetails | null; inline?: boolean }) {
  if (!details)
    return (
      <p className="min-w-0 text-sm text-ink-700">{inline ? 'Coming: not told yet' : "Who's coming: not told yet."}</p>
    );
  const adults = `${details.adults} adult${details.adults === 1 ? '' : 's'}`;
  if (inline) {
    const who = [
      ...details.children.map((c) => `${c.firstName} (${c.age})`),
      adults,
      ...(details.pets ? [`${details.pets} pet${details.pets === 1 ? '' : 's'}`] : []),
    ];
    return (
      <p className="min-w-0 flex-1 text-sm text-ink-900" data-testid="details-summary">
        <span className="text-ink-600">Coming: </span>
        <span className="font-semibold">{who.join(', ')}</span>
        {details.accessNeeds.length > 0 && (
          <>
            <span className="text-ink-600">. Access: </span>
            <span className="font-semibold">{accessSummary(details)}</span>
          </>
        )}
      </p>
    );
  }
  return (
    <dl className="grid gap-1 text-sm" data-testid="details-summary">
      <div className="flex flex-wrap gap-x-2">
        <dt className="text-ink-600">Children</dt>
        <dd className="font-semibold text-ink-900">
          {details.children.length ? details.children.map((c) => `${c.firstName} (${c.age})`).join(', ') : 'None'}
        </dd>
      </div>
      <div className="flex flex-wrap gap-x-2">
        <dt className="text-ink-600">Also coming</dt>
        <dd className="font-semibold text-ink-900">
          {adults}
          {details.pets ? `, ${details.pets} pet${details.pets === 1 ? '' : 's'}` : ''}
        </dd>
      </div>
      {details.accessNeeds.length > 0 && (
        <div className="flex flex-wrap gap-x-2">
          <dt className="text-ink-600">Access</dt>
          <dd className="font-semibold text-ink-900">{accessSummary(details)}</dd>
        </div>
      )}
    </dl>
  );
}
