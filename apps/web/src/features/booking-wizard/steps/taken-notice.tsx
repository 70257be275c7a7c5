import type { Slot } from '@kringle/contracts/catalogue';
import { Button } from '../../../components/ui/button';
import { sessionTime } from '../calendar/session-list';

const NEXT_FREE_COUNT = 3;

/** The next free sessions of the day after a taken one (earlier ones when none are later). */
export function nextFreeSessions(slots: Slot[], after: Slot, count = NEXT_FREE_COUNT): Slot[] {
  const free = slots.filter((s) => s.kind === 'session' && s.status === 'available' && s.id !== after.id);
  const later = free.filter((s) => s.startAt > after.startAt);
  return (later.length > 0 ? later : free).slice(0, count);
}

/** A session picked just as someone else took it: says so, and offers the next free ones that day. */
export function TakenNotice({
  message,
  suggestions,
  timezone,
  busy,
  loading,
  onPick,
}: {
  message: string;
  suggestions: Slot[];
  timezone: string;
  busy: boolean;
  loading: boolean;
  onPick: (slot: Slot) => void;
}) {
  return (
    <div role="alert" className="flex flex-col gap-3 rounded-2xl border border-festive-100 bg-festive-50 p-4">
      <p className="font-semibold text-festive-800">{message}</p>
      {suggestions.length > 0 ? (
        <>
          <p className="text-ink-700">The next free sessions that day:</p>
          <ul className="flex flex-wrap gap-2">
            {suggestions.map((s) => (
              <li key={s.id}>
                <Button variant="secondary" onClick={() => onPick(s)} disabled={busy}>
                  {sessionTime(s.startAt, timezone)}
                </Button>
              </li>
            ))}
          </ul>
        </>
      ) : (
        !loading && <p className="text-ink-700">Nothing else is free that day. Please choose another day.</p>
      )}
    </div>
  );
}
