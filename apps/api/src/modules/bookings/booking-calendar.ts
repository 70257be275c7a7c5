import type { BookingDetails } from '../payments/payments.repository';

const stamp = (d: Date) => d.toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
// RFC 5545 text: escape backslash, semicolon, comma and newlines.
const text = (v: string) => v.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\n/g, '\\n');

/** A one-event iCalendar file; instants in UTC so every calendar shows the right local time. */
export function bookingIcs(details: BookingDetails, brandName: string, now: Date): string {
  const b = details.booking;
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${text(brandName)}//Bookings//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${b.id}@kringle`,
    `DTSTAMP:${stamp(now)}`,
    `DTSTART:${stamp(details.startAt)}`,
    `DTEND:${stamp(details.endAt)}`,
    `SUMMARY:${text(`${details.slotTypeName} (${b.reference})`)}`,
    `LOCATION:${text(`${details.locationName}, ${details.address}, ${details.suburb} ${details.state}`)}`,
    `DESCRIPTION:${text(`Booking ${b.reference}. Please arrive 10 minutes early.`)}`,
    `STATUS:${b.status === 'cancelled' ? 'CANCELLED' : 'CONFIRMED'}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.join('\r\n') + '\r\n';
}
