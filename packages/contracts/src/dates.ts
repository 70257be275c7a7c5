/**
 * Calendar dates and wall-clock times in a location's IANA time zone, without a date library.
 * Instants are UTC; a "local date" is `YYYY-MM-DD` and a "local time" `HH:mm` in that zone.
 */
import { z } from 'zod';

/** What each formatter shows; the zone is added per use. */
const FORMATS = {
  parts: {
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  },
  day: { weekday: 'short', day: 'numeric', month: 'short' },
  clock: { hour: 'numeric', minute: '2-digit', hour12: true },
  zoneName: { timeZoneName: 'short' },
} satisfies Record<string, Intl.DateTimeFormatOptions>;

const formatters = new Map<string, Intl.DateTimeFormat>();

/**
 * One formatter per zone and kind, built on first use: building an Intl.DateTimeFormat costs far
 * more than using it, and a day's list of sessions or a few booking cards formatted dozens of
 * times (issue 21: they were most of the work of choosing a day).
 */
function formatter(timeZone: string, kind: keyof typeof FORMATS): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat('en-AU', { timeZone, ...FORMATS[kind] });
    formatters.set(key, f);
  }
  return f;
}

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

function wallClock(instant: Date, timeZone: string): WallClock {
  const parts = Object.fromEntries(
    formatter(timeZone, 'parts')
      .formatToParts(instant)
      .map((p) => [p.type, p.value]),
  );
  return {
    year: Number(parts.year),
    month: Number(parts.month),
    day: Number(parts.day),
    hour: Number(parts.hour),
    minute: Number(parts.minute),
    second: Number(parts.second),
  };
}

/** Offset of the zone from UTC at an instant, in minutes (Sydney in summer: +660). */
export function zoneOffsetMinutes(instant: Date, timeZone: string): number {
  const w = wallClock(instant, timeZone);
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return Math.round((asUtc - Math.floor(instant.getTime() / 1000) * 1000) / 60_000);
}

/**
 * The instant at which the zone's clocks show `date` `time`. In a daylight-saving gap the
 * time is moved forward by the gap; in an overlap the earlier instant is taken.
 */
export function zonedToInstant(date: string, time: string, timeZone: string): Date {
  const [y, mo, d] = date.split('-').map(Number) as [number, number, number];
  const [h, mi] = time.split(':').map(Number) as [number, number];
  const naive = Date.UTC(y, mo - 1, d, h, mi);
  const day = 24 * 60 * 60_000;
  // A zone changes its offset at most once around a given day: try the offsets before and after.
  const before = zoneOffsetMinutes(new Date(naive - day), timeZone);
  const after = zoneOffsetMinutes(new Date(naive + day), timeZone);
  const valid = [before, after]
    .map((offset) => naive - offset * 60_000)
    .filter((t) => localDateOf(new Date(t), timeZone) === date && localTimeOf(new Date(t), timeZone) === time);
  return new Date(valid.length > 0 ? Math.min(...valid) : naive - before * 60_000);
}

/** `YYYY-MM-DD` of an instant in a zone. */
export function localDateOf(instant: Date, timeZone: string): string {
  const w = wallClock(instant, timeZone);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

/** `HH:mm` of an instant in a zone. */
export function localTimeOf(instant: Date, timeZone: string): string {
  const w = wallClock(instant, timeZone);
  return `${pad(w.hour)}:${pad(w.minute)}`;
}

/** Adds days to a calendar date (no time zone involved). */
export function addDays(date: string, days: number): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
}

/** 0 = Sunday … 6 = Saturday, of a calendar date. */
export function weekdayOf(date: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d)).getUTCDay();
}

export const DATE_PATTERN = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$/;

/**
 * A day that exists (not 2026-02-30) within years 2000 to 2100: 9999-12-31 reached date arithmetic
 * past JavaScript's and PostgreSQL's range and answered 500 (issue 36).
 */
export const calendarDateSchema = z
  .string()
  .regex(DATE_PATTERN, 'a date like 2026-12-05')
  .refine((d) => {
    const [y, m, day] = d.split('-').map(Number) as [number, number, number];
    const date = new Date(Date.UTC(y, m - 1, day));
    return y >= 2000 && y <= 2100 && date.getUTCMonth() === m - 1 && date.getUTCDate() === day;
  }, 'not a day in the calendar between 2000 and 2100');
export const TIME_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

/** "Sat 6 Dec" in the zone. */
function dayOf(at: Date, timeZone: string): string {
  const parts = Object.fromEntries(
    formatter(timeZone, 'day')
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.weekday} ${parts.day} ${parts.month}`;
}

/** "Sat 6 Dec, 10:40 am AEDT": how a session is shown to a person (DESIGN.md). */
export function formatSessionTime(instant: Date | string, timeZone: string): string {
  const at = typeof instant === 'string' ? new Date(instant) : instant;
  return `${dayOf(at, timeZone)}, ${formatClockTime(at, timeZone)} ${zoneAbbreviation(at, timeZone)}`;
}

/** "Sat 6 Dec" of a calendar date (YYYY-MM-DD), whatever the reader's zone. */
export function formatCalendarDay(date: string): string {
  return dayOf(new Date(`${date}T12:00:00Z`), 'UTC');
}

/** "10:40 am" in the zone. */
export function formatClockTime(instant: Date | string, timeZone: string): string {
  const at = typeof instant === 'string' ? new Date(instant) : instant;
  return formatter(timeZone, 'clock').format(at).replace(/\s+/g, ' ').toLowerCase();
}

const AU_ZONE_NAMES: Record<string, [standard: string, daylight: string]> = {
  'Australia/Sydney': ['AEST', 'AEDT'],
  'Australia/Melbourne': ['AEST', 'AEDT'],
  'Australia/Hobart': ['AEST', 'AEDT'],
  'Australia/Canberra': ['AEST', 'AEDT'],
  'Australia/Brisbane': ['AEST', 'AEST'],
  'Australia/Adelaide': ['ACST', 'ACDT'],
  'Australia/Darwin': ['ACST', 'ACST'],
  'Australia/Perth': ['AWST', 'AWST'],
};

/** AEDT, AEST, ACDT, AWST…; falls back to the runtime's short name (e.g. "GMT+11"). */
export function zoneAbbreviation(instant: Date, timeZone: string): string {
  const names = AU_ZONE_NAMES[timeZone];
  if (names) {
    const january = zoneOffsetMinutes(new Date(Date.UTC(instant.getUTCFullYear(), 0, 1)), timeZone);
    const july = zoneOffsetMinutes(new Date(Date.UTC(instant.getUTCFullYear(), 6, 1)), timeZone);
    const now = zoneOffsetMinutes(instant, timeZone);
    return now === Math.max(january, july) && january !== july ? names[1] : names[0];
  }
  const part = formatter(timeZone, 'zoneName')
    .formatToParts(instant)
    .find((p) => p.type === 'timeZoneName');
  return part?.value ?? timeZone;
}

function pad(n: number): string {
  return String(n).padStart(2, '0');
}
