import { addDays, weekdayOf, zonedToInstant } from '@kringle/contracts/dates';
import { WEEKDAYS, type Season, type SeasonLocation } from '@kringle/contracts/season';

export interface PlannedSlot {
  slotTypeSlug: string;
  kind: 'session' | 'break';
  startAt: Date;
  endAt: Date;
}

const toMinutes = (hhmm: string) => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));
const toHhmm = (m: number) => `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;

/**
 * Every session and break of a location's season, as instants. Sessions of the type's length
 * fill each window; a break that overlaps the next session becomes a break slot and the
 * sessions resume when it ends. Wall-clock times are the location's (daylight saving included).
 */
export function planLocationSlots(location: SeasonLocation, slotTypes: Season['slotTypes']): PlannedSlot[] {
  const duration = new Map(slotTypes.map((t) => [t.slug, t.durationMinutes]));
  const breaks = location.breaks
    .map((b) => ({ from: toMinutes(b.from), to: toMinutes(b.to) }))
    .sort((a, b) => a.from - b.from);
  const closed = new Set(location.closedDates);
  const out: PlannedSlot[] = [];
  const at = (date: string, minutes: number) => zonedToInstant(date, toHhmm(minutes), location.timezone);

  for (let date = location.seasonStart; date <= location.seasonEnd; date = addDays(date, 1)) {
    if (closed.has(date)) continue;
    const weekday = WEEKDAYS[weekdayOf(date)]!;
    for (const rule of location.sessions) {
      if (!rule.days.includes(weekday)) continue;
      const length = duration.get(rule.slotType)!;
      const end = toMinutes(rule.hours.to);
      let cursor = toMinutes(rule.hours.from);
      while (cursor + length <= end) {
        const pause = breaks.find((b) => b.from < cursor + length && cursor < b.to);
        if (pause) {
          const from = Math.max(pause.from, cursor);
          const to = Math.min(pause.to, end);
          out.push({ slotTypeSlug: rule.slotType, kind: 'break', startAt: at(date, from), endAt: at(date, to) });
          cursor = pause.to;
          continue;
        }
        out.push({
          slotTypeSlug: rule.slotType,
          kind: 'session',
          startAt: at(date, cursor),
          endAt: at(date, cursor + length),
        });
        cursor += length;
      }
    }
  }
  return out;
}
