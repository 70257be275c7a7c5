import { localDateOf, localTimeOf, zoneAbbreviation, zoneOffsetMinutes } from '@kringle/contracts/dates';
import { tzlib_get_ical_block } from 'timezones-ical-library';
import type { BookingDetails } from './booking-rows.repository';
import { icsWhoIsComing } from './booking-details.emails';

/** Only a paid booking is a confirmed event; an unpaid one is tentative. */
const ICS_STATUS = {
  completed: 'CONFIRMED',
  payment_pending: 'TENTATIVE',
  payment_failed: 'TENTATIVE',
  cancelled: 'CANCELLED',
} as const;

const utcStamp = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
const localStamp = (d: Date, tz: string) =>
  `${localDateOf(d, tz).replace(/-/g, '')}T${localTimeOf(d, tz).replace(':', '')}00`;
// RFC 5545 text: escape backslash, semicolon, comma and newlines (a bare CR too: it ends a content
// line); drop other controls.
const text = (v: string) =>
  v
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n?|\n/g, '\\n')
    // eslint-disable-next-line no-control-regex -- matching control characters is the point
    .replace(/[\u0000-\u001f\u007f]/g, '');

function offset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const m = Math.abs(minutes);
  return `${sign}${String(Math.floor(m / 60)).padStart(2, '0')}${String(m % 60).padStart(2, '0')}`;
}

/** Reminders before the session (RFC 5545 VALARM, shown by the calendar app). */
export const ICS_REMINDERS = [
  { trigger: '-P1D', description: 'Photos with Santa tomorrow' },
  { trigger: '-PT2H', description: 'Photos with Santa in 2 hours' },
] as const;

/**
 * The zone's VTIMEZONE from the IANA rules (timezones-ical-library, which follows the tz
 * database): Sydney gets its AEST and AEDT rules, so a June session reads +10:00 and a
 * December one +11:00. A zone the library does not know gets the offset in force at the session.
 */
function vtimezone(tz: string, at: Date): string[] {
  const block = tzlib_get_ical_block(tz);
  if (Array.isArray(block) && block[0]?.startsWith('BEGIN:VTIMEZONE')) return block[0].split(/\r?\n/).filter(Boolean);
  const off = offset(zoneOffsetMinutes(at, tz));
  return [
    'BEGIN:VTIMEZONE',
    `TZID:${tz}`,
    'BEGIN:STANDARD',
    'DTSTART:19700101T000000',
    `TZOFFSETFROM:${off}`,
    `TZOFFSETTO:${off}`,
    `TZNAME:${zoneAbbreviation(at, tz)}`,
    'END:STANDARD',
    'END:VTIMEZONE',
  ];
}

const MAX_LINE_OCTETS = 75;

/**
 * RFC 5545 section 3.1: lines longer than 75 octets are folded (CRLF then a space), never
 * inside a UTF-8 sequence, so an address with "é" or a name in Chinese stays intact.
 */
export function foldLine(line: string): string {
  if (Buffer.byteLength(line) <= MAX_LINE_OCTETS) return line;
  const parts: string[] = [];
  let current = '';
  let octets = 0;
  // The first line holds 75 octets; each continuation holds 74 after its leading space.
  let limit = MAX_LINE_OCTETS;
  for (const ch of line) {
    const size = Buffer.byteLength(ch);
    if (octets + size > limit) {
      parts.push(current);
      current = '';
      octets = 0;
      limit = MAX_LINE_OCTETS - 1;
    }
    current += ch;
    octets += size;
  }
  parts.push(current);
  return parts.join('\r\n ');
}

/**
 * A one-event iCalendar file in the location's own time zone (TZID with the zone's VTIMEZONE),
 * so the event reads "10:40 am" in Perth as in Sydney, with reminders a day and two hours before.
 */
export function bookingIcs(details: BookingDetails, brandName: string, now: Date): string {
  const b = details.booking;
  const tz = details.timezone;
  const status = ICS_STATUS[b.status];
  const alarms =
    status === 'CANCELLED'
      ? []
      : ICS_REMINDERS.flatMap((r) => [
          'BEGIN:VALARM',
          'ACTION:DISPLAY',
          `DESCRIPTION:${text(r.description)}`,
          `TRIGGER:${r.trigger}`,
          'END:VALARM',
        ]);
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${text(brandName)}//Bookings//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    ...vtimezone(tz, details.startAt),
    'BEGIN:VEVENT',
    `UID:${b.id}@kringle`,
    `DTSTAMP:${utcStamp(now)}`,
    `DTSTART;TZID=${tz}:${localStamp(details.startAt, tz)}`,
    `DTEND;TZID=${tz}:${localStamp(details.endAt, tz)}`,
    `SUMMARY:${text(`${details.slotTypeName} at ${details.locationName} (${b.reference})`)}`,
    `LOCATION:${text(`${details.locationName}, ${details.address}, ${details.suburb} ${details.state}`)}`,
    `DESCRIPTION:${text(`Booking ${b.reference}.${icsWhoIsComing(details)} Please arrive 10 minutes early.`)}`,
    `STATUS:${status}`,
    `SEQUENCE:${b.rescheduleCount}`,
    ...alarms,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.map(foldLine).join('\r\n') + '\r\n';
}
