import { sql, type SQL } from 'drizzle-orm';
import type { SalesChannel, SalesGroup } from '@kringle/contracts/reports';
import type { DbOrTx } from '../../db/client';
import { heldNow, instant } from '../sessions/session-rules.sql';

/**
 * The reports' SQL (issue 35, decision 0057). Everything is summed by PostgreSQL: a big brand has
 * 150,000 bookings, and only the grouped rows (a few hundred at most) come back.
 *
 * Days are each location's own calendar days. Both reports read the facts tables (migration 0029,
 * decision 0066): a narrow row per paid order and per session, with its local day, kept equal to
 * the source tables by triggers at commit. The figures are the invoices' own (decision 0057).
 */
export interface ReportRange {
  from: string;
  to: string;
  /** null: every location. */
  locationIds: string[] | null;
}

/** The locations asked for, on the rows' own column (null: every location). */
const locationsOf = (r: ReportRange, column: SQL) =>
  r.locationIds ? sql`and ${column} = any(${sql.param(r.locationIds)}::uuid[])` : sql``;

export interface SalesGroupRow {
  key: string;
  label: string;
  channel: SalesChannel;
  bookings: number;
  grossCents: number;
  gstCents: number;
  refundsCents: number;
  refundsGstCents: number;
  disputedCents: number;
  disputesLostCents: number;
}

const SUMMED = [
  'bookings',
  'grossCents',
  'gstCents',
  'refundsCents',
  'refundsGstCents',
  'disputedCents',
  'disputesLostCents',
] as const;

/** An order's group: its local day, its location, or its package names (a JSON array, made "A + B" below). */
const KEYS: Record<SalesGroup, SQL> = {
  day: sql`f.day::text`,
  location: sql`f.location_id::text`,
  package: sql`f.packages`,
};

/** ["B","A","B"] → "A + B": the names once each, in order; none → "No package". */
function packageKey(names: string): string {
  const distinct = [...new Set(JSON.parse(names) as string[])].sort((a, b) => a.localeCompare(b));
  return distinct.length > 0 ? distinct.join(' + ') : 'No package';
}

/**
 * Paid orders (a tax invoice each) on their local day of payment, with their succeeded refunds
 * (a refund receipt's lines) whenever those were made.
 */
export async function salesGroups(db: DbOrTx, range: ReportRange, groupBy: SalesGroup): Promise<SalesGroupRow[]> {
  const result = await db.execute(sql`
    select ${KEYS[groupBy]} as key, min(l.name) as location_name, f.channel,
      count(*) filter (where f.kind = 'booking')::int as bookings, sum(f.gross_cents)::bigint as gross,
      sum(f.gst_cents)::bigint as gst,
      sum(f.refunds_cents)::bigint as refunds, sum(f.refunds_gst_cents)::bigint as refunds_gst,
      coalesce(sum(d.disputed), 0)::bigint as disputed, coalesce(sum(d.lost), 0)::bigint as disputes_lost
    from sale_facts f
    join locations l on l.id = f.location_id
    -- Chargebacks (issue 56): few, read from their own table; an inquiry (warning_*) is not one.
    left join (
      select order_id, sum(amount_cents) as disputed, sum(amount_cents) filter (where status = 'lost') as lost
      from disputes where status in ('needs_response', 'under_review', 'won', 'lost')
      group by order_id
    ) d on d.order_id = f.order_id
    where f.day between ${range.from}::date and ${range.to}::date ${locationsOf(range, sql`f.location_id`)}
    group by 1, f.channel
    order by ${groupBy === 'location' ? sql`min(l.sort_order), min(l.name)` : sql`1`}, f.channel`);
  const rows = new Map<string, SalesGroupRow>();
  for (const r of result.rows) {
    const key = groupBy === 'package' ? packageKey(r.key as string) : (r.key as string);
    const row: SalesGroupRow = {
      key,
      label: groupBy === 'location' ? (r.location_name as string) : key,
      channel: r.channel as SalesChannel,
      bookings: Number(r.bookings),
      grossCents: Number(r.gross),
      gstCents: Number(r.gst),
      refundsCents: Number(r.refunds),
      refundsGstCents: Number(r.refunds_gst),
      disputedCents: Number(r.disputed),
      disputesLostCents: Number(r.disputes_lost),
    };
    // Orders whose package lines came in another order ("B, A") land on the same key.
    const same = rows.get(`${key}\u0000${row.channel}`);
    if (!same) rows.set(`${key}\u0000${row.channel}`, row);
    else for (const k of SUMMED) same[k] += row[k];
  }
  return [...rows.values()];
}

export interface OccupancyDbRow {
  date: string;
  locationId: string;
  locationName: string;
  capacity: number;
  booked: number;
  held: number;
  closed: number;
  checkedIn: number;
  noShow: number;
}

/**
 * Sessions per location and local day (breaks are not sessions). A session is counted once, as
 * the run sheet shows it: booked, else held (a live hold), else closed (out of sale), else free.
 * The facts give all but the holds, which are a matter of the clock: the live ones (a reservation
 * whose hold has not expired, found by `slots_hold_reservation_idx`) are counted here and taken
 * out of the closed ones they sit on.
 */
export async function occupancyRows(db: DbOrTx, range: ReportRange, now: Date): Promise<OccupancyDbRow[]> {
  const inRange = sql`f.day between ${range.from}::date and ${range.to}::date
  ${locationsOf(range, sql`f.location_id`)}`;
  const result = await db.execute(sql`
    with per_day as (
      select f.location_id, f.day,
        count(*)::int as capacity,
        count(*) filter (where f.booked)::int as booked,
        count(*) filter (where not f.booked and f.blocked)::int as closed,
        count(*) filter (where f.checked_in)::int as checked_in,
        count(*) filter (where f.no_show)::int as no_show
      from session_facts f
      where ${inRange}
      group by 1, 2
    ), holds as (
      select f.location_id, f.day, count(*)::int as held, count(*) filter (where f.blocked)::int as held_closed
      from slots s join session_facts f on f.slot_id = s.id
      where s.hold_reservation_id is not null and ${sql.raw(heldNow('s', instant(now)))} and s.booking_id is null and
      ${inRange}
      group by 1, 2
    )
    select p.day::text as date, p.location_id, l.name as location_name, p.capacity, p.booked,
      coalesce(h.held, 0) as held, p.closed - coalesce(h.held_closed, 0) as closed, p.checked_in, p.no_show
    from per_day p
    join locations l on l.id = p.location_id
    left join holds h on h.location_id = p.location_id and h.day = p.day
    order by p.day, l.sort_order, l.name`);
  return result.rows.map((r) => ({
    date: r.date as string,
    locationId: r.location_id as string,
    locationName: r.location_name as string,
    capacity: r.capacity as number,
    booked: r.booked as number,
    held: r.held as number,
    closed: r.closed as number,
    checkedIn: r.checked_in as number,
    noShow: r.no_show as number,
  }));
}

export interface DonationDayRow {
  date: string;
  count: number;
  donatedCents: number;
  refundedCents: number;
}

/** Paid orders with a donation, on their local day of payment; what went back with a full refund beside it. */
export async function donationDays(db: DbOrTx, range: ReportRange): Promise<DonationDayRow[]> {
  const result = await db.execute(sql`
    select f.day::text as date, count(*)::int as count, sum(f.donation_cents)::bigint as donated,
      sum(f.donation_refunds_cents)::bigint as refunded
    from sale_facts f
    where f.donation_cents > 0 and f.day between ${range.from}::date and ${range.to}::date
      ${locationsOf(range, sql`f.location_id`)}
    group by 1 order by 1`);
  return result.rows.map((r) => ({
    date: r.date as string,
    count: Number(r.count),
    donatedCents: Number(r.donated),
    refundedCents: Number(r.refunded),
  }));
}

/** The charities the range's donations were given to, as each order recorded it (decision 0109), most given first. */
export async function donationCharities(db: DbOrTx, range: ReportRange): Promise<string[]> {
  const result = await db.execute(sql`
    select o.donation_to as name from sale_facts f join orders o on o.id = f.order_id
    where f.donation_cents > 0 and o.donation_to is not null and f.day between ${range.from}::date and ${range.to}::date
      ${locationsOf(range, sql`f.location_id`)}
    group by 1 order by sum(f.donation_cents) desc, 1`);
  return result.rows.map((r) => r.name as string);
}
