import type { ReactNode } from 'react';
import { Button } from '../../../components/ui/button';
import { FEW_LEFT } from './date-picker';

const longDay = new Intl.DateTimeFormat('en-AU', { timeZone: 'UTC', weekday: 'long', day: 'numeric', month: 'long' });

/**
 * What the chosen day has left, in words: "Fully booked" (with a jump to the next day that has a
 * free session) or "Few left". `children`: further offers for a full day (e.g. a waitlist).
 */
export function DayNotice({
  free,
  sessions,
  nextFree,
  onJump,
  children,
}: {
  free: number;
  sessions: number;
  nextFree: string | null;
  onJump: (date: string) => void;
  children?: ReactNode;
}) {
  if (free === 0 && sessions > 0) {
    return (
      <div
        data-testid="day-full"
        className="flex flex-col gap-3 rounded-2xl border border-dashed border-ink-600/50 bg-cream-200 p-4"
      >
        <p className="text-ink-900">
          <span className="font-semibold">Fully booked.</span> Every session this day is taken.
        </p>
        {nextFree && (
          <Button variant="secondary" className="w-fit" onClick={() => onJump(nextFree)}>
            Next free day: {longDay.format(new Date(`${nextFree}T00:00:00Z`))}
          </Button>
        )}
        {children}
      </div>
    );
  }
  if (free > 0 && free <= FEW_LEFT) {
    return (
      <p data-testid="day-few" className="rounded-2xl bg-gold-300/30 px-4 py-3 text-ink-900">
        <span className="font-semibold">Few left:</span> only {free} session{free === 1 ? '' : 's'} free this day.
      </p>
    );
  }
  return null;
}
