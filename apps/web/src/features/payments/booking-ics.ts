import type { Booking } from '@kringle/contracts/bookings';

const stamp = (iso: string | Date) => new Date(iso).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
// RFC 5545 text values: escape backslash, semicolon, comma and newlines.
const text = (v: string) => v.replace(/\\/g, '\\\\').replace(/;/g, '\\;').replace(/,/g, '\\,').replace(/\n/g, '\\n');

/**
 * The booking as a one-event iCalendar file, built in the browser from the booking the page
 * already has. Instants are UTC, so every calendar shows the session at the right local time.
 */
export function bookingIcs(booking: Booking, brandName: string, now: Date = new Date()): string {
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    `PRODID:-//${text(brandName)}//Bookings//EN`,
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:${booking.id}@kringle`,
    `DTSTAMP:${stamp(now)}`,
    `DTSTART:${stamp(booking.slot.startAt)}`,
    `DTEND:${stamp(booking.slot.endAt)}`,
    `SUMMARY:${text(`Photos with Santa: ${booking.slotType.name} (${booking.reference})`)}`,
    `LOCATION:${text(`${booking.location.name}, ${booking.location.address}`)}`,
    `DESCRIPTION:${text(`Booking ${booking.reference}. Please arrive 10 minutes early.`)}`,
    'STATUS:CONFIRMED',
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return lines.join('\r\n') + '\r\n';
}

/** Saves the .ics through a temporary link (works on phones: the calendar app offers to add it). */
export function downloadIcs(booking: Booking, brandName: string): void {
  const url = URL.createObjectURL(new Blob([bookingIcs(booking, brandName)], { type: 'text/calendar;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `santa-photos-${booking.reference}.ics`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
