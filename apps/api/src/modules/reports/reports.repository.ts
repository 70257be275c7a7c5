import { sql, type SQL } from 'drizzle-orm';
import type { SalesChannel, SalesGroup } from '@kringle/contracts/reports';
import type { DbOrTx } from '../../db/client';

/**
 * The reports' SQL (issue 35, decision 0057). Everything is summed by PostgreSQL: a big brand has
 * 150,000 bookings, and only the grouped rows (a few hundred at most) come back.
 *
 * Days are each location's own calendar days. The UTC window around them (a day either side) keeps
 * the scan to the range whatever the zone; the exact local-day test then trims it.
 */
export interface ReportRange {
  from: string;
  to: string;
  /** null: every location. */
  locationIds: string[] | null;
}

const windowOf = (r: ReportRange, column: SQL) => sql`
  ${column} >= (${r.from}::date - 1)::timestamp at time zone 'UTC'
  and ${column} < (${r.to}::date + 2)::timestamp at time zone 'UTC'`;
const locationsOf = (r: ReportRange, column: SQL) => (r.locationIds ? sql`and ${column} = any(${sql.param(r.locationIds)}::uuid[])` : sql``);

export interface SalesGroupRow {
  key: string;
  label: string;
  channel: SalesChannel;
  bookings: number;
  grossCents: number;
  gstCents: number;
  refundsCents: number;
  refundsGstCents: number;
}

/**
 * One eleventh rounded to the cent, per order: exactly `gstOf` (contracts/money.ts), which prints
 * the tax invoice's "GST included" and the refund receipt's "GST refunded". Summing the rounded
 * figures, never rounding the sum, is what makes the report agree with the invoices to the cent.
 * (x/11 is never exactly half a cent, so PostgreSQL's and JavaScript's rounding cannot differ.)
 */
const gstOf = (cents: SQL) => sql`round(${cents}::numeric / 11)::bigint`;

/** An order's group: its local day, its location, or the names of its packages ("A + B"). */
function keyOf(groupBy: SalesGroup): { key: SQL; label: SQL } {
  if (groupBy === 'day') return { key: sql`day::text`, label: sql`day::text` };
  if (groupBy === 'location') return { key: sql`location_id::text`, label: sql`location_name` };
  const names = sql`coalesce((select string_agg(distinct e->>'name', ' + ' order by e->>'name') from jsonb_array_elements(items) e where e->>'type' = 'package'), 'No package')`;
  return { key: names, label: names };
}

/**
 * Paid orders (a tax invoice each) on their local day of payment, with their succeeded refunds
 * (a refund receipt's lines) whenever those were made.
 */
export async function salesGroups(db: DbOrTx, range: ReportRange, groupBy: SalesGroup): Promise<SalesGroupRow[]> {
  const { key, label } = keyOf(groupBy);
  const result = await db.execute(sql`
    with refunded as (
      select order_id, sum(amount_cents)::bigint as cents from refunds where status = 'succeeded' group by order_id
    ), sold as (
      select o.amount_cents, o.items, b.source, b.location_id, l.name as location_name, l.sort_order,
        (o.paid_at at time zone l.timezone)::date as day, coalesce(r.cents, 0) as refunded_cents
      from orders o
      join bookings b on b.id = o.booking_id
      join locations l on l.id = b.location_id
      left join refunded r on r.order_id = o.id
      where o.paid_at is not null and ${windowOf(range, sql`o.paid_at`)} ${locationsOf(range, sql`b.location_id`)}
        and (o.paid_at at time zone l.timezone)::date between ${range.from}::date and ${range.to}::date
    ), keyed as (
      select ${key} as key, ${label} as label, sold.* from sold
    )
    select key, min(label) as label, source as channel,
      count(*)::int as bookings, sum(amount_cents)::bigint as gross, sum(${gstOf(sql`amount_cents`)})::bigint as gst,
      sum(refunded_cents)::bigint as refunds, sum(${gstOf(sql`refunded_cents`)})::bigint as refunds_gst
    from keyed group by key, source
    order by ${groupBy === 'location' ? sql`min(sort_order), min(label)` : sql`key`}, source`);
  return result.rows.map((r) => ({
    key: r.key as string,
    label: r.label as string,
    channel: r.channel as SalesChannel,
    bookings: Number(r.bookings),
    grossCents: Number(r.gross),
    gstCents: Number(r.gst),
    refundsCents: Number(r.refunds),
    refundsGstCents: Number(r.refunds_gst),
  }));
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
 * Uses slots_location_start_idx.
 */
export async function occupancyRows(db: DbOrTx, range: ReportRange, now: Date): Promise<OccupancyDbRow[]> {
  const live = sql`coalesce(s.hold_expires_at > ${now.toISOString()}::timestamptz, false)`;
  const result = await db.execute(sql`
    select (s.start_at at time zone l.timezone)::date::text as date, s.location_id, min(l.name) as location_name,
      count(*)::int as capacity,
      count(*) filter (where s.booking_id is not null)::int as booked,
      count(*) filter (where s.booking_id is null and ${live})::int as held,
      count(*) filter (where s.booking_id is null and not ${live} and s.blocked)::int as closed,
      count(b.checked_in_at)::int as checked_in,
      count(b.no_show_at)::int as no_show
    from slots s
    join locations l on l.id = s.location_id
    left join bookings b on b.id = s.booking_id
    where s.kind = 'session' and ${windowOf(range, sql`s.start_at`)} ${locationsOf(range, sql`s.location_id`)}
      and (s.start_at at time zone l.timezone)::date between ${range.from}::date and ${range.to}::date
    group by 1, s.location_id
    order by 1, min(l.sort_order), min(l.name)`);
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
