import { clsx } from 'clsx';
import { useRef, useState, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import { addDays, weekdayOf } from '@kringle/contracts/dates';

export interface PickerDay {
  date: string;
  available: number;
}

const WEEKDAYS = [
  ['Mon', 'Monday'],
  ['Tue', 'Tuesday'],
  ['Wed', 'Wednesday'],
  ['Thu', 'Thursday'],
  ['Fri', 'Friday'],
  ['Sat', 'Saturday'],
  ['Sun', 'Sunday'],
] as const;

const utc = (date: string) => new Date(`${date}T00:00:00Z`);
const fullDate = new Intl.DateTimeFormat('en-AU', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' });
const monthShort = new Intl.DateTimeFormat('en-AU', { timeZone: 'UTC', month: 'short' });
const rangeFormat = new Intl.DateTimeFormat('en-AU', { timeZone: 'UTC', day: 'numeric', month: 'long' });

/** Monday-first weeks (Australian calendars) covering the days, padded with nulls. */
export function calendarWeeks(days: PickerDay[]): (PickerDay | null)[][] {
  if (days.length === 0) return [];
  const first = days[0]!.date;
  const last = days[days.length - 1]!.date;
  const byDate = new Map(days.map((d) => [d.date, d]));
  const start = addDays(first, -((weekdayOf(first) + 6) % 7));
  const weeks: (PickerDay | null)[][] = [];
  for (let day = start; day <= last; ) {
    const week: (PickerDay | null)[] = [];
    for (let i = 0; i < 7; i++, day = addDays(day, 1)) week.push(byDate.get(day) ?? null);
    weeks.push(week);
  }
  return weeks;
}

export function dayLabel(day: PickerDay, notOpenYet = false): string {
  const when = fullDate.format(utc(day.date));
  if (notOpenYet) return `${when}, not on sale yet`;
  if (day.available === 0) return `${when}, nothing left`;
  return `${when}, ${day.available} session${day.available === 1 ? '' : 's'} left`;
}

/**
 * A calendar grid of the season's days (WAI-ARIA date-grid pattern): one tab stop, arrow keys
 * move by day and week, Home/End to the week's ends, Enter or Space chooses. Days with nothing
 * left stay focusable (so the arrows never jump) but are marked disabled and cannot be chosen.
 * Before bookings open (`notOpenYet`) every day can be chosen, to look at its sessions.
 */
export function DatePicker({ days, selected, onSelect, notOpenYet = false }: { days: PickerDay[]; selected: string | null; onSelect: (date: string) => void; notOpenYet?: boolean }) {
  const weeks = calendarWeeks(days);
  const grid = useRef<HTMLTableElement>(null);
  const firstOpen = days.find((d) => d.available > 0)?.date ?? days[0]?.date ?? null;
  const [focused, setFocused] = useState<string | null>(null);
  const active = focused ?? selected ?? firstOpen;

  if (days.length === 0) return null;
  const first = days[0]!.date;
  const last = days[days.length - 1]!.date;

  const moveTo = (date: string) => {
    const target = date < first ? first : date > last ? last : date;
    flushSync(() => setFocused(target));
    grid.current?.querySelector<HTMLButtonElement>(`[data-date="${target}"]`)?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLButtonElement>, date: string) => {
    const weekday = (weekdayOf(date) + 6) % 7;
    const moves: Record<string, number> = { ArrowLeft: -1, ArrowRight: 1, ArrowUp: -7, ArrowDown: 7, Home: -weekday, End: 6 - weekday };
    const by = moves[event.key];
    if (by === undefined) return;
    event.preventDefault();
    moveTo(addDays(date, by));
  };

  return (
    <table ref={grid} role="grid" aria-labelledby="date-picker-caption" className="w-full table-fixed border-separate border-spacing-0.5 sm:border-spacing-1">
      <caption id="date-picker-caption" className="mb-2 text-left text-base font-semibold text-ink-900">
        Choose a day <span className="font-normal text-ink-600">({rangeFormat.format(utc(first))} to {rangeFormat.format(utc(last))})</span>
      </caption>
      <thead>
        <tr>
          {WEEKDAYS.map(([short, long]) => (
            <th key={short} scope="col" abbr={long} className="pb-1 text-center text-xs font-semibold uppercase text-ink-600">
              {short}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {weeks.map((week) => (
          <tr key={week.find(Boolean)?.date}>
            {week.map((day, i) => {
              if (!day) return <td key={i} role="gridcell" aria-hidden="true" />;
              const closed = !notOpenYet && day.available === 0;
              const isSelected = day.date === selected;
              const showMonth = day.date === first || day.date.endsWith('-01');
              return (
                <td key={day.date} role="gridcell">
                  <button
                    type="button"
                    data-date={day.date}
                    tabIndex={day.date === active ? 0 : -1}
                    aria-disabled={closed || undefined}
                    aria-label={dayLabel(day, notOpenYet)}
                    aria-pressed={isSelected}
                    onClick={() => !closed && onSelect(day.date)}
                    onKeyDown={(e) => onKeyDown(e, day.date)}
                    onFocus={() => setFocused(day.date)}
                    className={clsx(
                      'flex h-12 w-full flex-col items-center justify-center rounded-xl text-base leading-none tabular-nums',
                      closed && 'cursor-not-allowed text-ink-600/60 line-through decoration-ink-600/40',
                      !closed && !isSelected && 'bg-cream-50 font-semibold text-ink-900 ring-1 ring-cream-300 hover:ring-festive-600',
                      isSelected && 'bg-festive-700 font-semibold text-cream-50 shadow-sm',
                    )}
                  >
                    {showMonth && <span className="text-[0.65rem] font-semibold uppercase leading-none">{monthShort.format(utc(day.date))}</span>}
                    <span>{Number(day.date.slice(8))}</span>
                  </button>
                </td>
              );
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
