import { useEffect, useState } from 'react';
import { formatSessionTime } from '@kringle/contracts/dates';
import { serverNow } from '../../../lib/server-clock';
import { openingCountdown } from './sales-opening';

/** Longest delay setTimeout keeps (about 24.8 days); a later opening is re-armed on the next render. */
const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/**
 * Whether a location's bookings are open yet, on the API's clock (lib/server-clock.ts), flipping
 * at the instant itself without a reload; `openedHere` once that flip happened on this page.
 */
export function useSalesOpen(opensAt: string | null | undefined): { open: boolean; openedHere: boolean } {
  const at = opensAt ? Date.parse(opensAt) : Number.NaN;
  const [closedUntil, setClosedUntil] = useState<number | null>(null);
  const [openedAt, setOpenedAt] = useState<number | null>(null);
  const closed = !Number.isNaN(at) && at > serverNow() && openedAt !== at;
  if (closed && closedUntil !== at) setClosedUntil(at);
  useEffect(() => {
    if (closedUntil === null) return;
    // Re-checked when it fires: a far opening is re-armed (setTimeout's cap), a near one flips.
    const timer = setTimeout(
      () => {
        if (closedUntil <= serverNow()) setOpenedAt(closedUntil);
        else setClosedUntil(null);
      },
      Math.min(MAX_TIMEOUT_MS, Math.max(0, closedUntil - serverNow())),
    );
    return () => clearTimeout(timer);
  }, [closedUntil]);
  return { open: !closed, openedHere: openedAt !== null && openedAt === at };
}

/**
 * Before the opening: when it is, in the location's zone, and a countdown. The seconds tick for
 * the eye only; screen readers hear the opening once, and "Bookings are open" at the instant.
 */
export function SalesCountdown({ opensAt, timezone, open }: { opensAt: string; timezone: string; open: boolean }) {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    if (open) return;
    const tick = setInterval(() => setNow(serverNow()), 1000);
    return () => clearInterval(tick);
  }, [open]);
  return (
    <div className="flex flex-col gap-1 rounded-2xl border border-gold-400 bg-gold-300/25 p-4 text-ink-900">
      <p role="status" className="font-semibold">
        {open ? 'Bookings are open. Choose a time below.' : `Bookings open ${formatSessionTime(opensAt, timezone)}.`}
      </p>
      {!open && (
        <>
          <p aria-hidden="true" className="text-2xl font-semibold tabular-nums" data-testid="opening-countdown">
            {openingCountdown(Date.parse(opensAt) - now)}
          </p>
          <p className="text-sm text-ink-700">
            Here are the sessions: they become bookable at that moment, without reloading this page.
          </p>
        </>
      )}
    </div>
  );
}
