import type { Closure, ClosureOutcome } from '@kringle/contracts/closures';
import { useEffect, useState } from 'react';
import { Button } from '../../components/ui/button';
import { ApiProblem } from '../../lib/api-error';
import { closureCsv, getClosure } from './closures-api';

const OUTCOME_LABELS: Record<ClosureOutcome, string> = {
  move_offered: 'Move offered',
  moved: 'Moved',
  refunded: 'Refunded',
  failed: 'Not changed',
};
const POLL_MS = 1500;

/** A running closure's progress, then the outcome of each booking (polled until the job is done). */
export function ClosureProgress({ id }: { id: string }) {
  const [closure, setClosure] = useState<Closure | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = () =>
      getClosure(id)
        .then((c) => {
          if (stopped) return;
          setClosure(c);
          setProblem(null);
          if (c.status === 'running') timer = setTimeout(load, POLL_MS);
        })
        .catch((err: unknown) => {
          if (stopped) return;
          setProblem(err instanceof ApiProblem ? err.message : 'The closure could not be loaded.');
          timer = setTimeout(load, POLL_MS * 2);
        });
    void load();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [id]);

  if (!closure) return <p role="status">{problem ?? 'Loading the closure…'}</p>;
  const percent = closure.total ? Math.round((closure.done / closure.total) * 100) : 100;
  const sessions = `${closure.sessions} ${closure.sessions === 1 ? 'session' : 'sessions'}`;
  const bookings = `${closure.total} ${closure.total === 1 ? 'booking' : 'bookings'}`;
  return (
    <section
      aria-labelledby="closure-progress-h"
      className="flex flex-col gap-3 rounded-xl border border-cream-300 bg-cream-50 p-4"
    >
      <h2 id="closure-progress-h" className="font-display text-xl font-semibold">
        {closure.status === 'done' ? 'Closure done' : 'Closing…'}
      </h2>
      <p role="status" className="text-ink-700">
        {sessions} closed. {closure.done} of {bookings} handled.
      </p>
      <progress className="h-3 w-full accent-pine-700" max={100} value={percent} aria-label="Bookings handled">
        {percent}%
      </progress>
      {closure.outcomes.length > 0 && (
        <table className="w-full text-left text-sm">
          <thead>
            <tr className="border-b border-cream-300">
              <th scope="col" className="py-2 pr-3">
                Booking
              </th>
              <th scope="col" className="py-2 pr-3">
                Outcome
              </th>
              <th scope="col" className="hidden py-2 sm:table-cell">
                Detail
              </th>
            </tr>
          </thead>
          <tbody>
            {closure.outcomes.map((o) => (
              <tr key={o.bookingId} className="border-b border-cream-200 align-top">
                <td className="py-2 pr-3 font-mono">{o.reference}</td>
                <td className="py-2 pr-3">{o.outcome ? OUTCOME_LABELS[o.outcome] : 'Waiting'}</td>
                <td className="hidden py-2 text-ink-700 sm:table-cell">{o.detail}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Button variant="secondary" className="self-start" onClick={() => void closureCsv(closure.id)}>
        Download outcomes (CSV)
      </Button>
    </section>
  );
}
