import { describe, expect, it } from 'vitest';
import {
  addDays,
  calendarDateSchema,
  formatCalendarDay,
  formatSessionTime,
  localDateOf,
  localTimeOf,
  weekdayOf,
  zonedToInstant,
  zoneAbbreviation,
  zoneOffsetMinutes,
} from './dates';

describe('dates in a location time zone', () => {
  it('converts wall-clock times to instants in zones with and without daylight saving', () => {
    expect(zonedToInstant('2026-12-05', '10:40', 'Australia/Sydney').toISOString()).toBe('2026-12-04T23:40:00.000Z');
    expect(zonedToInstant('2026-12-05', '10:40', 'Australia/Brisbane').toISOString()).toBe('2026-12-05T00:40:00.000Z');
    expect(zonedToInstant('2026-12-05', '10:40', 'Australia/Perth').toISOString()).toBe('2026-12-05T02:40:00.000Z');
    expect(zonedToInstant('2026-06-05', '10:40', 'Australia/Sydney').toISOString()).toBe('2026-06-05T00:40:00.000Z');
  });

  it('handles the daylight-saving change days in Sydney', () => {
    // 4 Oct 2026: clocks go from 02:00 AEST to 03:00 AEDT.
    expect(zonedToInstant('2026-10-04', '01:30', 'Australia/Sydney').toISOString()).toBe('2026-10-03T15:30:00.000Z');
    expect(zonedToInstant('2026-10-04', '03:30', 'Australia/Sydney').toISOString()).toBe('2026-10-03T16:30:00.000Z');
    expect(zonedToInstant('2026-10-04', '10:00', 'Australia/Sydney').toISOString()).toBe('2026-10-03T23:00:00.000Z');
    // A time in the gap moves forward.
    expect(localTimeOf(zonedToInstant('2026-10-04', '02:30', 'Australia/Sydney'), 'Australia/Sydney')).toBe('03:30');
    // 5 Apr 2026: 03:00 AEDT becomes 02:00 AEST; 02:30 happens twice, the earlier is taken.
    expect(zonedToInstant('2026-04-05', '02:30', 'Australia/Sydney').toISOString()).toBe('2026-04-04T15:30:00.000Z');
    expect(zonedToInstant('2026-04-05', '10:00', 'Australia/Sydney').toISOString()).toBe('2026-04-05T00:00:00.000Z');
  });

  it('reads local dates and times back', () => {
    const at = new Date('2026-12-04T23:40:00Z');
    expect(localDateOf(at, 'Australia/Sydney')).toBe('2026-12-05');
    expect(localDateOf(at, 'Australia/Perth')).toBe('2026-12-05');
    expect(localTimeOf(at, 'Australia/Perth')).toBe('07:40');
    expect(zoneOffsetMinutes(at, 'Australia/Sydney')).toBe(660);
    expect(zoneOffsetMinutes(at, 'Australia/Perth')).toBe(480);
  });

  it('does calendar arithmetic', () => {
    expect(addDays('2026-12-31', 1)).toBe('2027-01-01');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(weekdayOf('2026-12-05')).toBe(6);
  });

  it('formats a session for a person', () => {
    expect(formatSessionTime('2026-12-05T23:40:00Z', 'Australia/Sydney')).toBe('Sun 6 Dec, 10:40 am AEDT');
    expect(formatSessionTime('2026-12-06T02:40:00Z', 'Australia/Perth')).toBe('Sun 6 Dec, 10:40 am AWST');
    expect(zoneAbbreviation(new Date('2026-12-06T00:00:00Z'), 'Australia/Brisbane')).toBe('AEST');
    expect(zoneAbbreviation(new Date('2026-06-06T00:00:00Z'), 'Australia/Sydney')).toBe('AEST');
    expect(formatCalendarDay('2026-12-09')).toBe('Wed 9 Dec');
  });
});

describe('calendarDateSchema (issue 36)', () => {
  it('accepts real days from 2000 to 2100 and refuses impossible or far-off ones', () => {
    for (const ok of ['2026-12-06', '2028-02-29', '2000-01-01', '2100-12-31'])
      expect(calendarDateSchema.safeParse(ok).success, ok).toBe(true);
    for (const bad of ['2026-02-30', '2027-02-29', '2026-04-31', '9999-12-31', '1999-12-31', '2026-13-01', '2026-1-1'])
      expect(calendarDateSchema.safeParse(bad).success, bad).toBe(false);
  });
});
