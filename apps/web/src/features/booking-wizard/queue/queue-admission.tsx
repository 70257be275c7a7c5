import { useEffect, useState } from 'react';
import { formatClockTime, zoneAbbreviation } from '@kringle/contracts/dates';
import { serverNow } from '../../../lib/server-clock';
import { openingCountdown } from './sales-opening';

/** The time left on the server's clock, ticking every second. */
function useMsLeft(until: string): number {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const tick = setInterval(() => setNow(serverNow()), 1000);
    return () => clearInterval(tick);
  }, []);
  return Date.parse(until) - now;
}

/**
 * "It's your turn" with the admission's end (issue 53 item 10): the family is told how long it
 * has to choose a session, until when in the centre's zone, and sees it count down on the
 * server's clock. The count is hidden from screen readers (read once, not every second); the
 * sentence says the time.
 */
export function AdmissionNotice({
  admittedUntil,
  timezone,
  centre,
}: {
  admittedUntil: string;
  timezone: string;
  centre: string;
}) {
  const left = useMsLeft(admittedUntil);
  const minutes = Math.max(1, Math.ceil(left / 60_000));
  const until = `${formatClockTime(admittedUntil, timezone)} ${zoneAbbreviation(new Date(admittedUntil), timezone)}`;
  if (left <= 0) {
    return (
      <p role="status" className="font-semibold">
        Your turn at {centre} has ended. Go back to the waiting room to see where you stand.
      </p>
    );
  }
  return (
    <div className="flex flex-col gap-1" data-testid="queue-admission">
      <p role="status" className="font-semibold">
        It&apos;s your turn at {centre}! You have {minutes} minute{minutes === 1 ? '' : 's'}, until {until}, to choose a
        session.
      </p>
      <p className="text-sm text-ink-700">Once you pick a time it is held for you while you pay.</p>
      <p aria-hidden="true" className="text-3xl font-semibold tabular-nums" data-testid="admission-countdown">
        {openingCountdown(left)}
      </p>
    </div>
  );
}
