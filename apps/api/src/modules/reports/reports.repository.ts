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

/**
 * The chosen locations with the instants their first day starts and their last day ends: the
 * zone arithmetic is done once per location, so each row is tested against two instants.
 */
const placesOf = (r: ReportRange) => sql`
  select id, name, sort_order, timezone,
    (${r.from}::date::timestamp at time zone timezone) as lo,
    ((${r.to}::date + 1)::timestamp at time zone timezone) as hi
  from locations ${r.locationIds ? sql`where id = any(${sql.param(r.locationIds)}::uuid[])` : sql``}`;
/** The locations again, on the rows' own column: PostgreSQL then drops other locations' rows before joining. */
const locationsOf = (r: ReportRange, column: SQL) => (r.locationIds ? sql`and ${column} = any(${sql.param(r.locationIds)}::uuid[])` : sql``);
/** The same window in UTC widened by a day each side: lets PostgreSQL skip rows before any join. */
const windowOf = (r: ReportRange, column: SQL) => sql`
  ${column} >= (${r.from}::date - 1)::timestamp at time zone 'UTC'
  and ${column} < (${r.to}::date + 2)::timestamp at time zone 'UTC'`;

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
 * floor((2x + 11) / 22) is round(x / 11) half up in integers for x ≥ 0 (and x/11 is never exactly
 * half a cent anyway); integer division is cheaper than numeric over 150,000 rows.
 */
const gstOf = (cents: SQL) => sql`((2 * ${cents}::bigint + 11) / 22)`;

/** An order's group: its local day, its location, or its package names (a JSON array, made "A + B" below). */
const KEYS: Record<SalesGroup, SQL> = {
  day: sql`(o.paid_at at time zone l.timezone)::date::text`,
  location: sql`l.id::text`,
  package: sql`jsonb_path_query_array(o.items, '$[*] ? (@.type == "package").name')::text`,
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
  const refunded = sql`coalesce(r.cents, 0)`;
  const result = await db.execute(sql`
    with refunded as (
      select order_id, sum(amount_cents)::bigint as cents from refunds where status = 'succeeded' group by order_id
    ), places as (${placesOf(range)})
    select ${KEYS[groupBy]} as key, min(l.name) as location_name, b.source as channel,
      count(*)::int as bookings, sum(o.amount_cents)::bigint as gross, sum(${gstOf(sql`o.amount_cents`)})::bigint as gst,
      sum(${refunded})::bigint as refunds, sum(${gstOf(refunded)})::bigint as refunds_gst
    from orders o
    join bookings b on b.id = o.booking_id
    join places l on l.id = b.location_id
    left join refunded r on r.order_id = o.id
    where o.paid_at is not null and ${windowOf(range, sql`o.paid_at`)} and o.paid_at >= l.lo and o.paid_at < l.hi ${locationsOf(range, sql`b.location_id`)}
    group by 1, b.source
    order by ${groupBy === 'location' ? sql`min(l.sort_order), min(l.name)` : sql`1`}, b.source`);
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
    };
    // Orders whose package lines came in another order ("B, A") land on the same key.
    const same = rows.get(`${key}\u0000${row.channel}`);
    if (!same) rows.set(`${key}\u0000${row.channel}`, row);
    else for (const k of ['bookings', 'grossCents', 'gstCents', 'refundsCents', 'refundsGstCents'] as const) same[k] += row[k];
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
 * Grouped first and trimmed to the range after (MATERIALIZED): a test on the local day inside the
 * join made PostgreSQL expect a few thousand rows and look each booking up by index, 182,000
 * times over a big brand's season (3× slower than one hash join).
 */
export async function occupancyRows(db: DbOrTx, range: ReportRange, now: Date): Promise<OccupancyDbRow[]> {
  const live = sql`coalesce(s.hold_expires_at > ${now.toISOString()}::timestamptz, false)`;
  const result = await db.execute(sql`
    with per_day as materialized (
      select s.location_id, (s.start_at at time zone l.timezone)::date as day,
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
      group by 1, 2
    )
    select p.day::text as date, p.location_id, l.name as location_name, p.capacity, p.booked, p.held, p.closed, p.checked_in, p.no_show
    from per_day p join locations l on l.id = p.location_id
    where p.day between ${range.from}::date and ${range.to}::date
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
