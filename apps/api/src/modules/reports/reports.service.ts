import {
  REPORT_MAX_DAYS,
  type OccupancyQuery,
  type OccupancyReport,
  type SalesFigures,
  type SalesQuery,
  type SalesReport,
  type SalesRow,
} from '@kringle/contracts/reports';
import type { DonationReport, DonationReportQuery } from '@kringle/contracts/donation-reports';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../lib/errors';
import {
  donationCharities,
  donationDays,
  occupancyRows,
  salesGroups,
  type ReportRange,
  type SalesGroupRow,
} from './reports.repository';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config'>;

/** The caller's reach: a location it may see (or refuse), and its list (empty = every location). */
export interface ReportScope {
  staffLocationIds: string[];
  assertLocation(locationId: string): void;
}

const DAY_MS = 86_400_000;

/**
 * The range checked (both days inclusive, at most REPORT_MAX_DAYS) and narrowed to the caller:
 * a location outside its list is refused (403 LOCATION_FORBIDDEN), no location means all it covers.
 */
export function rangeOf(q: { from: string; to: string; locationId?: string }, scope: ReportScope): ReportRange {
  const days = (Date.parse(q.to) - Date.parse(q.from)) / DAY_MS + 1;
  if (days < 1) throw errors.invalidField('to', 'The last day is before the first.');
  if (days > REPORT_MAX_DAYS) throw errors.invalidField('to', `A report covers at most ${REPORT_MAX_DAYS} days.`);
  if (q.locationId) {
    scope.assertLocation(q.locationId);
    return { from: q.from, to: q.to, locationIds: [q.locationId] };
  }
  return { from: q.from, to: q.to, locationIds: scope.staffLocationIds.length > 0 ? scope.staffLocationIds : null };
}

const zero = (): SalesFigures => ({
  bookings: 0,
  grossCents: 0,
  gstCents: 0,
  refundsCents: 0,
  refundsGstCents: 0,
  netCents: 0,
  disputedCents: 0,
  disputesLostCents: 0,
});

function add(into: SalesFigures, row: SalesGroupRow): void {
  into.bookings += row.bookings;
  into.grossCents += row.grossCents;
  into.gstCents += row.gstCents;
  into.refundsCents += row.refundsCents;
  into.refundsGstCents += row.refundsGstCents;
  into.disputedCents += row.disputedCents;
  into.disputesLostCents += row.disputesLostCents;
  into.netCents = into.grossCents - into.refundsCents;
}

const withChannels = () => ({ ...zero(), channels: { online: zero(), walkin: zero() } });

/** GET /staff/reports/sales: a row per key with online and walk-in sales apart, and the totals. */
export async function salesReport(deps: Deps, q: SalesQuery, scope: ReportScope): Promise<SalesReport> {
  const rows = await salesGroups(deps.db, rangeOf(q, scope), q.groupBy);
  const items = new Map<string, SalesRow>();
  const totals = withChannels();
  for (const row of rows) {
    let item = items.get(row.key);
    if (!item) items.set(row.key, (item = { key: row.key, label: row.label, ...withChannels() }));
    for (const figures of [item, item.channels[row.channel], totals, totals.channels[row.channel]]) add(figures, row);
  }
  const list = [...items.values()];
  // The best sellers first; days and locations keep the order the query gave.
  if (q.groupBy === 'package') list.sort((a, b) => b.grossCents - a.grossCents || a.key.localeCompare(b.key));
  return { from: q.from, to: q.to, groupBy: q.groupBy, items: list, totals };
}

/** GET /staff/reports/occupancy: a row per location and day that has sessions. */
export async function occupancyReport(deps: Deps, q: OccupancyQuery, scope: ReportScope): Promise<OccupancyReport> {
  const rows = await occupancyRows(deps.db, rangeOf(q, scope), deps.clock.now());
  return {
    from: q.from,
    to: q.to,
    items: rows.map((r) => ({ ...r, free: r.capacity - r.booked - r.held - r.closed })),
  };
}

/** GET /staff/reports/donations: for the charity, a row per day with donations, and the totals. */
export async function donationReport(deps: Deps, q: DonationReportQuery, scope: ReportScope): Promise<DonationReport> {
  const range = rangeOf(q, scope);
  const rows = await donationDays(deps.db, range);
  const items = rows.map((r) => ({ ...r, netCents: r.donatedCents - r.refundedCents }));
  const totals = { count: 0, donatedCents: 0, refundedCents: 0, netCents: 0 };
  for (const r of items) {
    totals.count += r.count;
    totals.donatedCents += r.donatedCents;
    totals.refundedCents += r.refundedCents;
    totals.netCents += r.netCents;
  }
  // The charity the money was given to, as the orders say, not today's setting: an operator may change it mid-season.
  const given = await donationCharities(deps.db, range);
  return { charityName: given.length ? given.join(' and ') : (deps.config.CHARITY_NAME ?? null), items, totals };
}
