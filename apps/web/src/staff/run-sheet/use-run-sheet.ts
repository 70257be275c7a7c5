import type { RunSheet } from '@kringle/contracts/staff';
import { useCallback, useEffect, useRef, useState } from 'react';
import { requestJson } from '../session/staff-client';

/** How often an open run sheet asks again: another device's check-in or a family's cancel shows within this. */
const RUN_SHEET_POLL_MS = 5000;

/**
 * The run sheet of a location's day, kept current while the page is open and visible (polling:
 * simple, and enough at a set with a handful of devices). `reload` asks at once, after an action.
 */
export function useRunSheet(locationId: string, date: string | null, filter: 'all' | 'break' = 'all') {
  const key = `${locationId}|${date ?? ''}|${filter}`;
  // Kept with the query it answers, so another location or day never shows the previous one's sheet.
  const [answer, setAnswer] = useState<{ key: string; sheet: RunSheet } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(0);
  const reload = useCallback(async () => {
    const ticket = ++latest.current;
    const query = new URLSearchParams({ locationId, filter, ...(date ? { date } : {}) });
    try {
      const next = await requestJson<RunSheet>(`/staff/run-sheet?${query.toString()}`);
      // An older answer arriving after a newer one is dropped.
      if (ticket === latest.current) {
        setAnswer({ key, sheet: next });
        setError(null);
      }
    } catch (err) {
      if (ticket === latest.current)
        setError(err instanceof Error ? err.message : 'The run sheet could not be loaded.');
    }
  }, [locationId, date, filter, key]);

  useEffect(() => {
    const first = setTimeout(() => void reload(), 0);
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') void reload();
    }, RUN_SHEET_POLL_MS);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, [reload]);
  return { sheet: answer?.key === key ? answer.sheet : null, error, reload };
}
