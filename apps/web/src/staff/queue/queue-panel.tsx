import type { StaffQueueSummary } from '@kringle/contracts/queue';
import { useCallback, useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { ApiProblem } from '../../lib/api-error';
import { postJson, requestJson } from '../session/staff-client';

const REFRESH_MS = 5000;

/**
 * The location's waiting room (issue 40, decision 0053), for managers: the line's length, the
 * families admitted and not yet holding, those holding, sessions sold since the draw, and a pause.
 * `opensAt` comes from the staff catalogue: a location without a line (null) is never asked, and
 * one whose line opens later is asked from then on (issue 53 item 17: no 404 on every page).
 * Keyed by the location where it is used, so another location starts from nothing.
 */
export function QueuePanel({ locationId, opensAt }: { locationId: string; opensAt: string | null }) {
  const [summary, setSummary] = useState<StaffQueueSummary | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const load = useCallback(() => {
    requestJson<StaffQueueSummary>(`/staff/queue/${locationId}`)
      .then((s) => {
        setSummary(s);
        setProblem(null);
      })
      .catch((err: unknown) => {
        setSummary(null);
        if (!(err instanceof ApiProblem && err.code === 'NOT_FOUND'))
          setProblem(err instanceof Error ? err.message : 'The waiting room could not be read.');
      });
  }, [locationId]);
  const closed = summary?.closed ?? false;
  useEffect(() => {
    if (!opensAt || closed) return;
    let timer: ReturnType<typeof setInterval> | undefined;
    const start = () => {
      load();
      timer = setInterval(load, REFRESH_MS);
    };
    const delay = Math.max(0, new Date(opensAt).getTime() - Date.now());
    // A timer past 2^31 ms fires at once: a line weeks away is asked about on a later visit.
    if (delay > 2 ** 31 - 1) return;
    const wait = setTimeout(start, delay);
    return () => {
      clearTimeout(wait);
      clearInterval(timer);
    };
  }, [load, opensAt, closed]);

  if (problem) return <p className="mb-4 text-sm text-ink-700">{problem}</p>;
  if (!summary || summary.closed) return null;
  const toggle = () => {
    postJson<StaffQueueSummary>(`/staff/queue/${locationId}/${summary.paused ? 'resume' : 'pause'}`)
      .then(setSummary)
      .catch((err: unknown) => setProblem(err instanceof Error ? err.message : 'Could not change the waiting room.'));
  };
  const figures: [string, number][] = [
    ['In line', summary.length],
    ['Admitted', summary.admitted],
    ['Holding', summary.holding],
    ['Sold', summary.sold],
    ['Free sessions', summary.freeSessions],
  ];
  return (
    <section
      aria-labelledby="queue-panel-title"
      className="mb-4 rounded-2xl border border-gold-400 bg-gold-300/25 p-4"
      data-print="hide"
    >
      <div className="flex flex-wrap items-center gap-3">
        <h2 id="queue-panel-title" className="font-semibold text-ink-900">
          Waiting room {summary.drawnAt ? '' : '(before the draw)'} {summary.paused && '· paused'}
        </h2>
        <Button variant="secondary" className="ml-auto" onClick={toggle}>
          {summary.paused ? 'Resume admissions' : 'Pause admissions'}
        </Button>
      </div>
      <dl className="mt-2 grid grid-cols-2 gap-2 sm:grid-cols-5">
        {figures.map(([label, value]) => (
          <div key={label}>
            <dt className="text-sm text-ink-700">{label}</dt>
            <dd className="text-xl font-semibold tabular-nums text-ink-900">{value}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
