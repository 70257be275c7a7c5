import ICAL from 'ical.js';
import { describe, expect, it } from 'vitest';
import { bookingIcs, foldLine } from './booking-calendar';
import type { BookingDetails } from './booking-rows.repository';

// Parsed with ical.js (an independent RFC 5545 parser), as a calendar app would read the file.
const details = (startAt: string, over: Partial<{ status: string; locationName: string; timezone: string }> = {}) =>
  ({
    booking: {
      id: '0d6f8f4e-2b1c-4a55-9d0e-3f2a1b4c5d6e',
      reference: 'KR-7Q2M4X',
      status: over.status ?? 'completed',
      rescheduleCount: 0,
    },
    timezone: over.timezone ?? 'Australia/Sydney',
    startAt: new Date(startAt),
    endAt: new Date(new Date(startAt).getTime() + 10 * 60_000),
    slotTypeName: 'Santa photos',
    locationName: over.locationName ?? 'Kringle Sydney, Pitt Street',
    address: '188 Pitt Street Mall',
    suburb: 'Sydney',
    state: 'NSW',
  }) as unknown as BookingDetails;

function parse(ics: string) {
  const calendar = new ICAL.Component(ICAL.parse(ics));
  const zone = new ICAL.Timezone(calendar.getFirstSubcomponent('vtimezone')!);
  const vevent = calendar.getFirstSubcomponent('vevent')!;
  const start = vevent.getFirstPropertyValue('dtstart') as ICAL.Time;
  // Resolve the TZID against the file's own VTIMEZONE, not a zone database of the parser's.
  const local = new ICAL.Time(
    { year: start.year, month: start.month, day: start.day, hour: start.hour, minute: start.minute, second: 0 },
    zone,
  );
  return { calendar, vevent, zone, local };
}

describe('booking calendar file', () => {
  it('a winter (June) Sydney session is at +10:00, from the IANA rules', () => {
    const { local } = parse(bookingIcs(details('2026-06-20T00:30:00Z'), 'Kringle', new Date()));
    expect(local.toString()).toBe('2026-06-20T10:30:00');
    expect(local.utcOffset()).toBe(10 * 3600);
    expect(local.toUnixTime()).toBe(Date.parse('2026-06-20T00:30:00Z') / 1000);
  });

  it('a summer (December) Sydney session is at +11:00', () => {
    const { local, zone } = parse(bookingIcs(details('2026-12-05T23:40:00Z'), 'Kringle', new Date()));
    expect(local.toString()).toBe('2026-12-06T10:40:00');
    expect(local.utcOffset()).toBe(11 * 3600);
    expect(local.toUnixTime()).toBe(Date.parse('2026-12-05T23:40:00Z') / 1000);
    // The rules, not one snapshot: the same zone block puts 1 April 2027 (still AEDT) and 10 April (AEST) apart.
    expect(new ICAL.Time({ year: 2027, month: 4, day: 1, hour: 12 }, zone).utcOffset()).toBe(11 * 3600);
    expect(new ICAL.Time({ year: 2027, month: 4, day: 10, hour: 12 }, zone).utcOffset()).toBe(10 * 3600);
  });

  it('Perth, which has no daylight saving, is at +08:00 all year', () => {
    const { local } = parse(
      bookingIcs(details('2026-12-05T23:40:00Z', { timezone: 'Australia/Perth' }), 'Kringle', new Date()),
    );
    expect(local.utcOffset()).toBe(8 * 3600);
    expect(local.toString()).toBe('2026-12-06T07:40:00');
  });

  it('reminds a day and two hours before, as a display alarm', () => {
    const { vevent } = parse(bookingIcs(details('2026-12-05T23:40:00Z'), 'Kringle', new Date()));
    const alarms = vevent.getAllSubcomponents('valarm');
    expect(alarms.map((a) => a.getFirstPropertyValue('action'))).toEqual(['DISPLAY', 'DISPLAY']);
    expect(alarms.map((a) => (a.getFirstPropertyValue('trigger') as ICAL.Duration).toSeconds())).toEqual([
      -86_400, -7_200,
    ]);
    expect(alarms.every((a) => typeof a.getFirstPropertyValue('description') === 'string')).toBe(true);
  });

  it('a cancelled booking has no reminders', () => {
    const { vevent } = parse(
      bookingIcs(details('2026-12-05T23:40:00Z', { status: 'cancelled' }), 'Kringle', new Date()),
    );
    expect(vevent.getFirstPropertyValue('status')).toBe('CANCELLED');
    expect(vevent.getAllSubcomponents('valarm')).toHaveLength(0);
  });

  it(
    'a bare CR or a control character in any text never ends or breaks a content line (issue 36, probe item ' + '11)',
    () => {
      const ics = bookingIcs(
        details('2026-12-05T23:40:00Z', { locationName: 'Kringle\rSydney\u0007 Plaza\r\nLevel 3' }),
        'Kringle',
        new Date(),
      );
      // Every CR is part of a CRLF line end; no BEL survives.
      const rest = ics.replace(/\r\n/g, '');
      expect([rest.includes('\r'), rest.includes('\u0007')]).toEqual([false, false]);
      const { vevent } = parse(ics);
      expect(vevent.getFirstPropertyValue('location')).toBe(
        'Kringle\nSydney Plaza\nLevel 3, 188 Pitt Street Mall, Sydney NSW',
      );
      expect(vevent.getFirstPropertyValue('summary')).toBe(
        'Santa photos at Kringle\nSydney Plaza\nLevel 3 (KR-7Q2M4X)',
      );
    },
  );

  it('folds long lines at 75 octets without splitting a UTF-8 character, and a parser unfolds them', () => {
    const name = 'Kringle Hội An Nguyễn Plaza 王府井 — the very long name of a shopping centre, level 3';
    const ics = bookingIcs(details('2026-12-05T23:40:00Z', { locationName: name }), 'Kringle', new Date());
    const lines = ics.split('\r\n');
    expect(lines.some((l) => l.startsWith(' '))).toBe(true);
    for (const line of lines) {
      expect(Buffer.byteLength(line)).toBeLessThanOrEqual(75);
      // Cut between bytes of one character, the line would not round-trip.
      expect(Buffer.from(line, 'utf8').toString('utf8')).toBe(line);
      expect(line).not.toContain('\uFFFD');
    }
    const { vevent } = parse(ics);
    expect(vevent.getFirstPropertyValue('location')).toBe(`${name}, 188 Pitt Street Mall, Sydney NSW`);
    expect(vevent.getFirstPropertyValue('summary')).toBe(`Santa photos at ${name} (KR-7Q2M4X)`);
  });

  it('foldLine counts octets: 3-byte characters wrap before 75', () => {
    const folded = foldLine(`X:${'王'.repeat(40)}`).split('\r\n');
    expect(folded.map((l) => Buffer.byteLength(l))).toEqual([74, 49]);
  });
});
