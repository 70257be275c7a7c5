import { useParams } from 'react-router';
import { LoadProblem } from '../../../components/ui/load-problem';
import { PublicDocument } from '../../../components/ui/public-document';
import { useGetPublicCatalogueQuery, useGetQueueReportQuery } from '../../../lib/queue-api';

const FIGURES = 'grid gap-x-6 gap-y-4 rounded-2xl border border-cream-300 bg-cream-50 p-4 sm:grid-cols-2 sm:p-5';
const seconds = (s: number | null) => (s === null ? 'nobody has held a session yet' : `${s} seconds`);

/**
 * /drop-report/:locationId (issue 55): the drop as the API publishes it, for anyone: the draw to
 * check, how fast families went in and held a session, when it sold out. Public, like the terms.
 */
export function DropReportPage({ brandName }: { brandName: string }) {
  const { locationId = '' } = useParams();
  const { data: report, error, refetch } = useGetQueueReportQuery(locationId);
  const notYet = error && 'status' in error && error.status === 404;
  // The location's name and zone from the public catalogue: the minutes are its local time, so is "sold out".
  const place = useGetPublicCatalogueQuery().data?.locations.find((l) => l.id === locationId);
  const admitted = report?.admittedByMinute.reduce((n, m) => n + m.admitted, 0) ?? 0;
  return (
    <PublicDocument
      brandName={brandName}
      title={place ? `How bookings opened at ${place.name}` : 'How bookings opened'}
    >
      <p className="mt-2 text-ink-600">
        Everyone who joined the waiting room before bookings opened got a place drawn at random at the opening moment.
        Here is that draw, which anyone can check, and what happened after it.
      </p>
      {notYet && (
        <p className="mt-6 rounded-2xl bg-cream-100 p-4">The draw has not happened yet: come back after the opening.</p>
      )}
      {error && !notYet && (
        <LoadProblem className="mt-6" onRetry={() => void refetch()}>
          The report could not be loaded.
        </LoadProblem>
      )}
      {report && (
        <div className="mt-8 flex flex-col gap-8" data-testid="drop-report">
          <p className="font-semibold text-ink-900">
            {report.final
              ? 'This drop is over: these figures are final.'
              : 'The line is still open: these figures may change.'}
          </p>
          <dl className={FIGURES}>
            <div>
              <dt className="text-sm text-ink-600">Families in the draw</dt>
              <dd className="text-xl font-semibold text-ink-900">{report.entrants.length}</dd>
            </div>
            <div>
              <dt className="text-sm text-ink-600">Families let in</dt>
              <dd className="text-xl font-semibold text-ink-900">{admitted}</dd>
            </div>
            <div>
              <dt className="text-sm text-ink-600">From being let in to holding a session</dt>
              <dd className="text-ink-900">
                half within {seconds(report.heldWithinSeconds.p50)}; 95 in 100 within{' '}
                {seconds(report.heldWithinSeconds.p95)}
              </dd>
            </div>
            <div>
              <dt className="text-sm text-ink-600">Sold out</dt>
              <dd className="text-ink-900">
                {report.soldOutAt
                  ? new Intl.DateTimeFormat('en-AU', {
                      dateStyle: 'medium',
                      timeStyle: 'long',
                      ...(place ? { timeZone: place.timezone } : {}),
                    }).format(new Date(report.soldOutAt))
                  : 'not sold out'}
              </dd>
            </div>
          </dl>
          <section aria-labelledby="by-minute">
            <h2 id="by-minute" className="mb-2 text-xl font-semibold text-ink-900">
              Families let in, minute by minute (local time)
            </h2>
            {report.admittedByMinute.length === 0 ? (
              <p className="text-ink-700">Nobody has been let in yet.</p>
            ) : (
              <table className="w-full max-w-md text-left">
                <thead>
                  <tr className="border-b border-cream-300 text-sm text-ink-600">
                    <th className="py-1 font-medium">Minute</th>
                    <th className="py-1 text-right font-medium">Let in</th>
                  </tr>
                </thead>
                <tbody>
                  {report.admittedByMinute.map((m) => (
                    <tr key={m.minute} className="border-b border-cream-200">
                      <td className="py-1 tabular-nums">{m.minute.replace('T', ' ')}</td>
                      <td className="py-1 text-right tabular-nums">{m.admitted}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </section>
          <section aria-labelledby="check-draw">
            <h2 id="check-draw" className="mb-2 text-xl font-semibold text-ink-900">
              Check the draw yourself
            </h2>
            <p className="text-ink-700">
              The seed&apos;s SHA-256 was published when the line opened; the order is the ticket ids sorted by
              HMAC-SHA256 of each id with the seed as key. Any computer can redo it.
            </p>
            <dl className="mt-3 flex flex-col gap-2 break-all font-mono text-sm text-ink-900">
              <div>
                <dt className="font-sans text-ink-600">Seed hash (published before the draw)</dt>
                <dd>{report.seedHash}</dd>
              </div>
              <div>
                <dt className="font-sans text-ink-600">Seed</dt>
                <dd>{report.seed}</dd>
              </div>
            </dl>
          </section>
        </div>
      )}
    </PublicDocument>
  );
}
