import { clsx } from 'clsx';
import type { Slot } from '@kringle/contracts/catalogue';
import { formatClockTime, localTimeOf, zoneAbbreviation } from '@kringle/contracts/dates';
import { serverNow } from '../../../lib/server-clock';

const PARTS_OF_DAY = [
  { key: 'morning', label: 'Morning', until: '12:00' },
  { key: 'afternoon', label: 'Afternoon', until: '17:00' },
  { key: 'evening', label: 'Evening', until: '24:00' },
] as const;

/** Sessions and Santa's breaks grouped by part of the day, in the location's local time. */
export function groupByPartOfDay(slots: Slot[], timezone: string) {
  return PARTS_OF_DAY.map((part, i) => {
    const from = i === 0 ? '00:00' : PARTS_OF_DAY[i - 1]!.until;
    return {
      ...part,
      slots: slots.filter(
        (s) =>
          localTimeOf(new Date(s.startAt), timezone) >= from && localTimeOf(new Date(s.startAt), timezone) < part.until,
      ),
    };
  }).filter((group) => group.slots.length > 0);
}

/** "10:40 am AEDT": a session time as a person reads it, in the location's zone. */
export const sessionTime = (instant: string, timezone: string) =>
  `${formatClockTime(instant, timezone)} ${zoneAbbreviation(new Date(instant), timezone)}`;

const TAKEN_WORDS: Record<Exclude<Slot['status'], 'available'>, string> = {
  reserved: 'Taken',
  booked: 'Taken',
  unavailable: 'Not available',
};

/**
 * Splits off the day's opening run of sessions that can no longer be booked (already started or
 * inside the lead time) with the breaks among them, so the list starts at the first real choice.
 */
export function skipPassed(slots: Slot[]): { passed: number; rest: Slot[] } {
  const firstLive = slots.findIndex((s) => s.kind === 'session' && s.status !== 'unavailable');
  const cut = firstLive === -1 ? slots.length : firstLive;
  return { passed: slots.slice(0, cut).filter((s) => s.kind === 'session').length, rest: slots.slice(cut) };
}

export interface SessionListProps {
  slots: Slot[];
  timezone: string;
  heldSlotId: string | null;
  /** When rescheduling: the booking's own session, marked so the family sees where they are now. */
  currentSlotId?: string | null;
  pendingSlotId: string | null;
  onPick: (slot: Slot) => void;
  /**
   * The family's own hold that this wizard does not hold yet (signed out and in, another device):
   * shown as theirs, and a tap takes it back instead of asking to hold it again (issue 53 item 4).
   */
  onResumeHeld?: () => void;
  /** Before the location's bookings open: every session is listed as it will be, none folded away. */
  notOpenYet?: boolean;
}

/** The zone's short name when every slot of the day shares it ("AEDT"), else null (a day the clocks change). */
export function dayZone(slots: Slot[], timezone: string): string | null {
  const zones = new Set(
    slots.flatMap((s) => [
      zoneAbbreviation(new Date(s.startAt), timezone),
      zoneAbbreviation(new Date(s.endAt), timezone),
    ]),
  );
  return zones.size === 1 ? [...zones][0]! : null;
}

/**
 * The day's sessions as buttons; taken ones stay in place, greyed and labelled, so the list
 * does not jump when news arrives. Breaks read as Santa's break. The zone is said once, above
 * the list (the step's heading), unless the clocks change that day: then on every time.
 */
export function SessionList({
  slots,
  timezone,
  heldSlotId,
  currentSlotId = null,
  pendingSlotId,
  onPick,
  onResumeHeld,
  notOpenYet = false,
}: SessionListProps) {
  // Before the opening every session reads unavailable: only those already started are folded away.
  const judged = notOpenYet
    ? slots.map((s) => (Date.parse(s.startAt) > serverNow() ? { ...s, status: 'available' as const } : s))
    : slots;
  const { passed, rest: judgedRest } = skipPassed(judged);
  const rest = slots.slice(slots.length - judgedRest.length);
  const groups = groupByPartOfDay(rest, timezone);
  const oneZone = dayZone(slots, timezone) !== null;
  const clock = (instant: string) => (oneZone ? formatClockTime(instant, timezone) : sessionTime(instant, timezone));
  return (
    <div className="flex flex-col gap-4">
      {passed > 0 && (
        <p className="rounded-xl bg-cream-200 px-4 py-3 text-sm text-ink-700">
          {rest.length === 0
            ? 'There are no more sessions this day. Please choose another day.'
            : `${passed} earlier session${passed === 1 ? ' is' : 's are'} no longer available.`}
        </p>
      )}
      {groups.map((group) => (
        <section key={group.key} aria-label={group.label} className="flex flex-col gap-2">
          <h4 className="text-sm font-semibold uppercase tracking-wide text-ink-600">{group.label}</h4>
          <ul className="grid grid-cols-2 gap-2 min-[420px]:grid-cols-3 sm:grid-cols-4">
            {group.slots.map((slot) => {
              const time = clock(slot.startAt);
              if (slot.kind === 'break') {
                return (
                  <li
                    key={slot.id}
                    className={
                      'col-span-full flex min-h-11 items-center justify-center gap-2 rounded-xl border ' +
                      'border-dashed border-gold-400 bg-gold-300/25 px-3 text-sm text-ink-700'
                    }
                  >
                    <span>
                      Santa's break, {formatClockTime(slot.startAt, timezone)} to {clock(slot.endAt)}
                    </span>
                  </li>
                );
              }
              const current = slot.id === currentSlotId;
              const held = slot.id === heldSlotId || current;
              const open = slot.status === 'available';
              const pending = slot.id === pendingSlotId;
              // Not on sale yet is not closed: it is never crossed out (the calendar's key says crossed out is closed).
              const soon = notOpenYet && slot.status === 'unavailable' && !held;
              // While a tap waits for its answer, that time says so and the others wait (issue 37 item 5).
              const waiting = pendingSlotId != null && !pending;
              const resumable = held && !current && onResumeHeld !== undefined;
              const note = pending
                ? 'Holding…'
                : current
                  ? 'Your current time'
                  : resumable
                    ? 'Yours: continue'
                    : held
                      ? 'Your session'
                      : slot.status === 'available'
                        ? null
                        : soon
                          ? 'Opens soon'
                          : TAKEN_WORDS[slot.status];
              return (
                <li key={slot.id}>
                  <button
                    type="button"
                    data-slot-id={slot.id}
                    data-status={current ? 'current' : held ? 'held' : slot.status}
                    disabled={resumable ? waiting : !open || pending || waiting || held}
                    aria-busy={pending || undefined}
                    aria-label={`${time}${note ? `, ${note.toLowerCase()}` : ''}`}
                    onClick={() => (resumable ? onResumeHeld() : onPick(slot))}
                    className={clsx(
                      'flex min-h-12 w-full flex-col items-center justify-center rounded-xl px-2 py-1 text-center ' +
                        'leading-tight tabular-nums',
                      open &&
                        !held &&
                        'bg-cream-50 font-semibold text-ink-900 ring-1 ring-cream-300 hover:bg-festive-50 ' +
                          'hover:ring-festive-700',
                      held && 'bg-pine-700 font-semibold text-cream-50',
                      soon && 'cursor-not-allowed border border-dashed border-ink-600/50 bg-cream-50 text-ink-700',
                      !open && !held && !soon && 'cursor-not-allowed bg-cream-200/60 text-ink-600',
                      pending && 'animate-pulse',
                    )}
                  >
                    <span className={clsx(!open && !held && !soon && 'line-through decoration-ink-600/50')}>
                      {formatClockTime(slot.startAt, timezone)}
                      {!oneZone && (
                        <span className="whitespace-nowrap text-sm font-medium">
                          {' '}
                          {zoneAbbreviation(new Date(slot.startAt), timezone)}
                        </span>
                      )}
                    </span>
                    {note && <span className="text-xs font-medium">{note}</span>}
                  </button>
                </li>
              );
            })}
          </ul>
        </section>
      ))}
    </div>
  );
}
