import { localDateOf, localTimeOf, zoneAbbreviation, zoneOffsetMinutes } from '@kringle/contracts/dates';
import type { BookingDetails } from '../payments/payments.repository';
import { icsWhoIsComing } from './booking-details.emails';

/** Only a paid booking is a confirmed event; an unpaid one is tentative. */
const ICS_STATUS = { completed: 'CONFIRMED', payment_pending: 'TENTATIVE', payment_failed: 'TENTATIVE', cancelled: 'CANCELLED' } as const;

const utcStamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
const localStamp = (d: Date, tz: string) => `${localDateOf(d, tz).replace(/-/g, '')}T${localTimeOf(d, tz).replace(':', '')}00`;
// RFC 5545 text: escape backslash, semicolon, comma and newlines.
const text = (v: string) => v.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\n/g, '\\n');

function offset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  return `${sign}${String(Math.floor(m / 60)).padStart(2, '0')}${String(m % 60).padStart(2, '0')}`;
}

/**
 * A one-event iCalendar file in the location's own time zone (TZID with a VTIMEZONE that states
 * the offset in force at the session), so the event reads "10:40 am" in Perth as in Sydney.
 */
export function bookingIcs(details: BookingDetails, brandName: string, now: Date): string {
  const b = details.booking;
  const tz = details.timezone;
  const off = offset(zoneOffsetMinutes(details.startAt, tz));
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${text(brandName)}//Bookings//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VTIMEZONE',
    `TZID:${tz}`,
    'BEGIN:STANDARD',
    'DTSTART:19700101T000000',
    `TZOFFSETFROM:${off}`,
    `TZOFFSETTO:${off}`,
    `TZNAME:${zoneAbbreviation(details.startAt, tz)}`,
    'END:STANDARD',
    'END:VTIMEZONE',
    'BEGIN:VEVENT',
    `UID:${b.id}@kringle`,
    `DTSTAMP:${utcStamp(now)}`,
    `DTSTART;TZID=${tz}:${localStamp(details.startAt, tz)}`,
    `DTEND;TZID=${tz}:${localStamp(details.endAt, tz)}`,
    `SUMMARY:${text(`${details.slotTypeName} at ${details.locationName} (${b.reference})`)}`,
    `LOCATION:${text(`${details.locationName}, ${details.address}, ${details.suburb} ${details.state}`)}`,
    `DESCRIPTION:${text(`Booking ${b.reference}.${icsWhoIsComing(details)} Please arrive 10 minutes early.`)}`,
    `STATUS:${ICS_STATUS[b.status]}`,
    `SEQUENCE:${b.rescheduleCount}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.join('\r\n') + '\r\n';
}
