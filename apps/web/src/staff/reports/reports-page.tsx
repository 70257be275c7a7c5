import { addDays, localDateOf } from '@kringle/contracts/dates';
import type { DonationReport } from '@kringle/contracts/donation-reports';
import type { VoucherReport } from '@kringle/contracts/voucher-reports';
import { formatAud } from '@kringle/contracts/money';
import { SALES_GROUPS, type OccupancyReport, type SalesGroup, type SalesReport } from '@kringle/contracts/reports';
import type { StaffCatalogue } from '@kringle/contracts/staff';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/ui/button';
import { ApiProblem } from '../../lib/api-error';
import { control, input, label } from '../parts/form-parts';
import { BarChart, type Bar } from './bar-chart';
import { DonationsReport } from './donations-report';
import { VouchersReport } from './vouchers-report';
import { FigureCards, OccupancyTable, SalesTable } from './report-tables';
import {
  donationReport,
  donationsCsv,
  voucherReport,
  vouchersCsv,
  occupancyCsv,
  occupancyReport,
  salesCsv,
  salesReport,
  type ReportFilter,
} from './reports-api';

type Location = StaffCatalogue['locations'][number];
const GROUP_LABELS: Record<SalesGroup, string> = { day: 'Day', location: 'Location', package: 'Package' };

/** "2026-12-05" → "5 Dec": short enough for an axis. */
const shortDay = (date: string) =>
  new Intl.DateTimeFormat('en-AU', { day: 'numeric', month: 'short', timeZone: 'UTC' }).format(
    new Date(`${date}T00:00:00Z`),
  );

interface Loaded {
  sales: SalesReport;
  byDay: SalesReport;
  occupancy: OccupancyReport;
  donations: DonationReport;
  vouchers: VoucherReport;
}

/** Net sales per day of the range, days without a sale at zero. */
function netByDay(r: SalesReport): Bar[] {
  const bars: Bar[] = [];
  for (let d = r.from; d <= r.to; d = addDays(d, 1)) {
    bars.push({
      label: shortDay(d),
      segments: [
        { name: 'Net', color: 'var(--color-pine-600)', value: r.items.find((i) => i.key === d)?.netCents ?? 0 },
      ],
    });
  }
  return bars;
}

/** Sessions per day, all the chosen locations together, stacked by state. */
function occupancyByDay(r: OccupancyReport): Bar[] {
  const days = [...new Set(r.items.map((i) => i.date))];
  return days.map((date) => {
    const sum = (k: 'booked' | 'held' | 'closed' | 'free') =>
      r.items.filter((i) => i.date === date).reduce((n, i) => n + i[k], 0);
    return {
      label: shortDay(date),
      segments: [
        { name: 'Booked', color: 'var(--color-pine-600)', value: sum('booked') },
        { name: 'Held', color: 'var(--color-gold-400)', value: sum('held') },
        { name: 'Closed', color: 'var(--color-festive-600)', value: sum('closed') },
        { name: 'Free', color: 'var(--color-cream-300)', value: sum('free') },
      ],
    };
  });
}

/**
 * The managers' reports (issues 35 and 52, decision 0057): sales, occupancy, donations and gift vouchers, with
 * charts and CSV.
 */
export function ReportsPage({ locations }: { locations: Location[] }) {
  const baseId = useId();
  const [filter, setFilter] = useState<ReportFilter>(() => {
    const today = localDateOf(new Date(), locations[0]?.timezone ?? 'Australia/Sydney');
    return { from: addDays(today, -7), to: addDays(today, 7), locationId: '', groupBy: 'day' };
  });
  const [draft, setDraft] = useState(filter);
  const [loaded, setLoaded] = useState<Loaded | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    const byDay = salesReport({ ...filter, groupBy: 'day' });
    Promise.all([
      filter.groupBy === 'day' ? byDay : salesReport(filter),
      byDay,
      occupancyReport(filter),
      donationReport(filter),
      voucherReport(filter),
    ])
      .then(([sales, days, occupancy, donations, vouchers]) => {
        if (!live) return;
        setLoaded({ sales, byDay: days, occupancy, donations, vouchers });
        setProblem(null);
      })
      .catch(
        (err: unknown) =>
          live && setProblem(err instanceof ApiProblem ? err.message : 'The reports could not be loaded.'),
      );
    return () => {
      live = false;
    };
  }, [filter]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setFilter(draft);
  };
  const field = (key: 'from' | 'to', text: string) => (
    <div className={label}>
      <label htmlFor={`${baseId}-${key}`}>{text}</label>
      <input
        id={`${baseId}-${key}`}
        type="date"
        required
        className={input}
        value={draft[key]}
        onChange={(e) => setDraft((d) => ({ ...d, [key]: e.target.value }))}
      />
    </div>
  );
  const t = loaded?.sales.totals;
  const placeWords = filter.locationId
    ? (locations.find((l) => l.id === filter.locationId)?.name ?? 'one location')
    : 'all your locations';

  return (
    <section aria-labelledby={`${baseId}-h`} className="flex flex-col gap-5">
      <h1 id={`${baseId}-h`} className="font-display text-2xl font-semibold">
        Reports
      </h1>
      <form onSubmit={onSubmit} className="grid grid-cols-2 gap-3 lg:grid-cols-5" aria-label="Choose the report">
        {field('from', 'From')}
        {field('to', 'To')}
        <div className={label}>
          <label htmlFor={`${baseId}-loc`}>Location</label>
          <select
            id={`${baseId}-loc`}
            className={`${control} w-full min-w-0`}
            value={draft.locationId}
            onChange={(e) => setDraft((d) => ({ ...d, locationId: e.target.value }))}
          >
            <option value="">All my locations</option>
            {locations.map((l) => (
              <option key={l.id} value={l.id}>
                {l.name}
              </option>
            ))}
          </select>
        </div>
        <div className={label}>
          <label htmlFor={`${baseId}-group`}>Sales by</label>
          <select
            id={`${baseId}-group`}
            className={`${control} w-full min-w-0`}
            value={draft.groupBy}
            onChange={(e) => setDraft((d) => ({ ...d, groupBy: e.target.value as SalesGroup }))}
          >
            {SALES_GROUPS.map((g) => (
              <option key={g} value={g}>
                {GROUP_LABELS[g]}
              </option>
            ))}
          </select>
        </div>
        <Button type="submit" className="col-span-2 self-end lg:col-span-1">
          Show
        </Button>
      </form>
      <p role="status" className="text-sm text-ink-700">
        {problem ?? (loaded ? `${loaded.sales.from} to ${loaded.sales.to}` : 'Loading…')}
      </p>
      {loaded && t && (
        <>
          <section aria-labelledby={`${baseId}-sales`} className="flex flex-col gap-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id={`${baseId}-sales`} className="font-display text-xl font-semibold">
                Sales
              </h2>
              <Button variant="secondary" onClick={() => void salesCsv(filter)}>
                Download sales CSV
              </Button>
            </div>
            <FigureCards
              figures={[
                ['Gross', t.grossCents],
                ['GST', t.gstCents],
                ['Refunds', t.refundsCents],
                ['Net', t.netCents],
              ]}
            />
            <p className="text-sm text-ink-700">
              {t.bookings} paid {t.bookings === 1 ? 'booking' : 'bookings'}: online{' '}
              {formatAud(t.channels.online.netCents)} net ({t.channels.online.bookings}), walk-ins{' '}
              {formatAud(t.channels.walkin.netCents)} net ({t.channels.walkin.bookings}).
            </p>
            <BarChart
              title="Net sales by day"
              summary={
                `Net sales from ${loaded.byDay.from} to ${loaded.byDay.to}: ` +
                `${formatAud(loaded.byDay.totals.netCents)} in all; each ` +
                `day's figure is in the table when sales are by day.`
              }
              bars={netByDay(loaded.byDay)}
              format={(c) => formatAud(c).replace(/\.00$/, '')}
            />
            <SalesTable report={loaded.sales} />
          </section>
          <section aria-labelledby={`${baseId}-occ`} className="flex flex-col gap-3">
            <div className="flex flex-wrap items-center justify-between gap-2">
              <h2 id={`${baseId}-occ`} className="font-display text-xl font-semibold">
                Occupancy
              </h2>
              <Button variant="secondary" onClick={() => void occupancyCsv(filter)}>
                Download occupancy CSV
              </Button>
            </div>
            <BarChart
              title="Sessions by day"
              summary={
                `Sessions each day, booked, held, closed and free, at ${placeWords}; ` +
                'the figures are in the table below.'
              }
              bars={occupancyByDay(loaded.occupancy)}
              format={(n) => String(Math.round(n))}
            />
            <OccupancyTable items={loaded.occupancy.items} />
          </section>
          <DonationsReport report={loaded.donations} onDownload={() => void donationsCsv(filter)} />
          <VouchersReport report={loaded.vouchers} onDownload={() => void vouchersCsv(filter)} />
        </>
      )}
    </section>
  );
}
