import type { LiveLocation } from '@kringle/contracts/live';
import { useLiveFigures } from './use-live-figures';

/** The four states of today's sessions, in the reports' colours (theme.css), in the bar's order. */
const STATES = [
  { key: 'sold', name: 'Sold', color: 'var(--color-pine-600)' },
  { key: 'held', name: 'Held', color: 'var(--color-gold-400)' },
  { key: 'closed', name: 'Closed', color: 'var(--color-festive-600)' },
  { key: 'free', name: 'Free', color: 'var(--color-cream-300)' },
] as const;

const clock = (at: string) =>
  new Date(at).toLocaleTimeString('en-AU', { hour: 'numeric', minute: '2-digit', second: '2-digit' });

/**
 * One location's sessions today as a bar cut in four (sold, held, closed, free), so a glance
 * tells how full the day is. The bar is an image with the figures in its name; the same figures
 * are written under it, so nobody needs the colours.
 */
function SessionsBar({ location }: { location: LiveLocation }) {
  const total = STATES.reduce((n, s) => n + location[s.key], 0);
  const summary = `Sessions today: ${STATES.map((s) => `${location[s.key]} ${s.name.toLowerCase()}`).join(', ')}`;
  return (
    <div className="flex flex-col gap-2">
      <div
        role="img"
        aria-label={summary}
        className="flex h-7 w-full overflow-hidden rounded-md border border-ink-600 bg-cream-100"
      >
        {total > 0 &&
          STATES.map((s) =>
            location[s.key] > 0 ? (
              <div
                key={s.key}
                className="h-full transition-[width] duration-500 motion-reduce:transition-none"
                style={{ width: `${(location[s.key] / total) * 100}%`, background: s.color }}
              />
            ) : null,
          )}
      </div>
      <dl className="grid grid-cols-4 gap-2 text-sm">
        {STATES.map((s) => (
          <div key={s.key} className="flex flex-col">
            <dt className="flex items-center gap-1.5 text-ink-700">
              <span
                aria-hidden="true"
                className="inline-block size-3 shrink-0 rounded-sm border border-ink-600"
                style={{ background: s.color }}
              />
              {s.name}
            </dt>
            <dd className="text-xl font-semibold tabular-nums text-ink-900">{location[s.key]}</dd>
          </div>
        ))}
      </dl>
    </div>
  );
}

function Figure({ label, value, alert = false }: { label: string; value: number; alert?: boolean }) {
  return (
    <div className="flex flex-col">
      <dt className="text-sm text-ink-700">{label}</dt>
      <dd className={`text-xl font-semibold tabular-nums ${alert && value > 0 ? 'text-festive-800' : 'text-ink-900'}`}>
        {value}
      </dd>
    </div>
  );
}

function LocationCard({ location }: { location: LiveLocation }) {
  const id = `live-${location.id}`;
  return (
    <section aria-labelledby={id} className="flex flex-col gap-3 rounded-xl border border-cream-300 bg-cream-50 p-4">
      <h2 id={id} className="font-display text-lg font-semibold text-ink-900">
        {location.name}
      </h2>
      {STATES.some((st) => location[st.key] > 0) ? (
        <SessionsBar location={location} />
      ) : (
        <p className="text-ink-700">No sessions today.</p>
      )}
      <dl className="grid grid-cols-2 gap-x-4 gap-y-2 border-t border-cream-300 pt-3 sm:grid-cols-4">
        <Figure label="In line, waiting" value={location.line.waiting} />
        <Figure label="In line, let in" value={location.line.admitted} />
        <Figure label="Paid, 5 min" value={location.paymentsLast5Min} />
        <Figure label="Failed, 5 min" value={location.failedPaymentsLast5Min} alert />
      </dl>
    </section>
  );
}

/** The manager's Live page (issue 50, decision 0094): every location now, updated every 2 s over a stream. */
export function LivePage() {
  const state = useLiveFigures();
  const figures = state.kind === 'refused' ? null : state.figures;
  if (state.kind === 'refused')
    return (
      <p role="alert" className="text-festive-800">
        {state.problem}
      </p>
    );
  return (
    <div className="flex flex-col gap-4">
      <div className="flex flex-wrap items-baseline justify-between gap-x-6 gap-y-2">
        <h1 className="font-display text-2xl font-semibold text-ink-900">Live</h1>
        <p className="text-sm text-ink-700" role="status">
          {state.kind === 'live' ? (
            <>
              <span aria-hidden="true" className="mr-1.5 inline-block size-2.5 rounded-full bg-pine-600" />
              Updated {clock(state.figures.at)} · every 2 seconds
            </>
          ) : state.kind === 'reconnecting' ? (
            state.problem
          ) : (
            'Connecting…'
          )}
        </p>
      </div>
      {figures && (
        <>
          <dl className="flex flex-wrap gap-x-8 gap-y-2 rounded-xl border border-cream-300 bg-cream-50 p-4">
            <Figure label="Server errors, last 5 min (all locations)" value={figures.errorsLast5Min} alert />
            <Figure label="Sessions sold today" value={figures.locations.reduce((n, l) => n + l.sold, 0)} />
            <Figure label="Held now" value={figures.locations.reduce((n, l) => n + l.held, 0)} />
          </dl>
          <div className="grid gap-4 lg:grid-cols-2">
            {figures.locations.map((l) => (
              <LocationCard key={l.id} location={l} />
            ))}
          </div>
        </>
      )}
    </div>
  );
}
