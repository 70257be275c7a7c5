import { clsx } from 'clsx';
import { useRef, useState, type KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';
import { addDays, weekdayOf } from '@kringle/contracts/dates';

export interface PickerDay {
  date: string;
  available: number;
  /** Sessions still to come that day, bookable or not (API: available-dates). */
  sessions: number;
}

/** At most this many free sessions is "Few left". */
export const FEW_LEFT = 3;

/** closed: no sessions at all; full: sessions, all taken (or not on sale yet); few: 1 to FEW_LEFT free. */
export type DayState = 'closed' | 'full' | 'few' | 'open';
function dayState(day: PickerDay): DayState {
  if (day.available > 0) return day.available <= FEW_LEFT ? 'few' : 'open';
  return day.sessions > 0 ? 'full' : 'closed';
}

/** The first day after `date` with a free session (else the first before it), for "next free day". */
export function nextFreeDay(days: PickerDay[], date: string | null): string | null {
  const free = days.filter((d) => d.available > 0);
  return (free.find((d) => date === null || d.date > date) ?? free.find((d) => d.date !== date))?.date ?? null;
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
  for (let day = start; day <= last;) {
    const week: (PickerDay | null)[] = [];
    for (let i = 0; i < 7; i++, day = addDays(day, 1)) week.push(byDate.get(day) ?? null);
    weeks.push(week);
  }
  return weeks;
}

export function dayLabel(day: PickerDay, notOnSale = false): string {
  const when = fullDate.format(utc(day.date));
  const state = dayState(day);
  if (state === 'closed') return `${when}, closed`;
  if (state === 'full') return `${when}, ${notOnSale ? 'not on sale yet' : 'fully booked'}`;
  const sessions = `${day.available} session${day.available === 1 ? '' : 's'}`;
  return `${when}, ${state === 'few' ? 'few left: ' : ''}${sessions} left`;
}

const CELL_WORD: Partial<Record<DayState, string>> = { full: 'Full', few: 'Few left' };

/**
 * A calendar grid of the season's days (WAI-ARIA date-grid pattern): one tab stop, arrow keys
 * move by day and week, Home/End to the week's ends, Enter or Space chooses. Closed days stay
 * focusable (so the arrows never jump) but are marked disabled and cannot be chosen. A fully
 * booked day can be chosen (its list says so and offers the next free day) and reads "Full", a
 * day with a few sessions left "Few left": words, not colour alone.
 */
export function DatePicker({
  days,
  selected,
  onSelect,
  notOnSale = false,
}: {
  days: PickerDay[];
  selected: string | null;
  onSelect: (date: string) => void;
  /** Before the location's bookings open no day has a free session: none is called fully booked. */
  notOnSale?: boolean;
}) {
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
    const moves: Record<string, number> = {
      ArrowLeft: -1,
      ArrowRight: 1,
      ArrowUp: -7,
      ArrowDown: 7,
      Home: -weekday,
      End: 6 - weekday,
    };
    const by = moves[event.key];
    if (by === undefined) return;
    event.preventDefault();
    moveTo(addDays(date, by));
  };

  return (
    <table
      ref={grid}
      role="grid"
      aria-labelledby="date-picker-caption"
      className="w-full table-fixed border-separate border-spacing-0.5 sm:border-spacing-1"
    >
      <caption id="date-picker-caption" className="mb-2 text-left text-base font-semibold text-ink-900">
        Choose a day{' '}
        <span className="font-normal text-ink-600">
          ({rangeFormat.format(utc(first))} to {rangeFormat.format(utc(last))})
        </span>
      </caption>
      <thead>
        <tr>
          {WEEKDAYS.map(([short, long]) => (
            <th
              key={short}
              scope="col"
              abbr={long}
              className="pb-1 text-center text-xs font-semibold uppercase text-ink-600"
            >
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
              const state = dayState(day);
              const closed = state === 'closed';
              const full = state === 'full';
              const word = notOnSale ? undefined : CELL_WORD[state];
              const isSelected = day.date === selected;
              const showMonth = day.date === first || day.date.endsWith('-01');
              return (
                <td key={day.date} role="gridcell">
                  <button
                    type="button"
                    data-date={day.date}
                    tabIndex={day.date === active ? 0 : -1}
                    aria-disabled={closed || undefined}
                    aria-label={dayLabel(day, notOnSale)}
                    aria-pressed={isSelected}
                    onClick={() => !closed && onSelect(day.date)}
                    onKeyDown={(e) => onKeyDown(e, day.date)}
                    onFocus={() => setFocused(day.date)}
                    className={clsx(
                      'flex h-12 w-full flex-col items-center justify-center rounded-xl text-base leading-none ' +
                        'tabular-nums',
                      closed && 'cursor-not-allowed text-ink-600/60 line-through decoration-ink-600/40',
                      full &&
                        !isSelected &&
                        'border border-dashed border-ink-600/50 bg-cream-200 text-ink-700 hover:border-festive-600',
                      !closed &&
                        !full &&
                        !isSelected &&
                        'bg-cream-50 font-semibold text-ink-900 ring-1 ring-cream-300 hover:ring-festive-600',
                      isSelected && 'bg-festive-700 font-semibold text-cream-50 shadow-sm',
                    )}
                  >
                    {showMonth && (
                      <span className="text-[0.65rem] font-semibold uppercase leading-none">
                        {monthShort.format(utc(day.date))}
                      </span>
                    )}
                    <span>{Number(day.date.slice(8))}</span>
                    {word && (
                      <span
                        className={
                          'mt-0.5 whitespace-nowrap text-[0.6rem] font-semibold uppercase leading-none ' +
                          'tracking-tight'
                        }
                      >
                        {word}
                      </span>
                    )}
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

/** Says what the calendar's marks mean, in words. */
export function DatePickerKey() {
  return (
    <p className="mt-2 px-1 text-sm text-ink-600">
      <span className="font-semibold text-ink-700">Full</span>: fully booked ·{' '}
      <span className="font-semibold text-ink-700">Few left</span>: {FEW_LEFT} or fewer sessions free · crossed out:
      closed
    </p>
  );
}
