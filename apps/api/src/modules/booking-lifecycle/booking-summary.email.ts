import { formatClockTime, zoneAbbreviation } from '@kringle/contracts/dates';
import type { BookingDetails } from './booking-rows.repository';

export interface SummaryRow {
  label: string;
  value: string;
}

/** "Saturday 6 December 2026" in the location's zone. */
function longDate(at: Date, timeZone: string): string {
  return new Intl.DateTimeFormat('en-AU', { timeZone, weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })
    .format(at)
    .replace(',', '');
}

/**
 * The summary block every booking e-mail shows: date, time (the location's zone), place and
 * reference, one row each. Other rows (who is coming, a check-in code…) are added by the mail
 * that needs them, one line each, after these.
 */
export function bookingSummary(d: BookingDetails): SummaryRow[] {
  return [
    { label: 'Date', value: longDate(d.startAt, d.timezone) },
    {
      label: 'Time',
      value:
        `${formatClockTime(d.startAt, d.timezone)} to ${formatClockTime(d.endAt, d.timezone)} ` +
        `${zoneAbbreviation(d.startAt, d.timezone)}`,
    },
    { label: 'Session', value: d.slotTypeName },
    { label: 'Place', value: `${d.locationName}, ${d.address}, ${d.suburb} ${d.state}` },
    { label: 'Reference', value: d.booking.reference },
  ];
}
