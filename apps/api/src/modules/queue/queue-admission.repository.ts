import { sql } from 'drizzle-orm';
import type { QueueWants } from '@kringle/contracts/queue';
import type { DbOrTx } from '../../db/client';
import { freeAhead, instant } from '../sessions/session-rules.sql';
import { drawKeyOf } from './queue-draw';
import { holding } from './queue.repository';

/** The admission pass's statements (draw, stock, admissions, the line's state): apart from joining and reading. */

/** The one conditional UPDATE that makes the draw happen once: null when someone else drew (or it is not time). */
export async function claimDraw(
  tx: DbOrTx,
  locationId: string,
  now: Date,
): Promise<{ seed: string; salesOpenAt: Date } | null> {
  const { rows } = await tx.execute(sql`
    update queue_lines set drawn_at = ${now.toISOString()}::timestamptz, version = version + 1
    where location_id = ${locationId}::uuid and drawn_at is null and sales_open_at <= ${now.toISOString()}::timestamptz
    returning seed, sales_open_at`);
  const r = rows[0];
  return r ? { seed: r.seed as string, salesOpenAt: new Date(r.sales_open_at as string) } : null;
}

/**
 * The draw's writes (decision 0117): none for the entrants who joined with their key, the rule; a
 * key for any entrant written without one (a ticket of an older release); then the later arrivals.
 */
export async function writeDraw(
  tx: DbOrTx,
  locationId: string,
  line: { seed: string; salesOpenAt: Date },
): Promise<void> {
  const { rows } = await tx.execute(sql`
    select id from queue_tickets where location_id = ${locationId}::uuid and draw_key is null and position is null
      and joined_at < ${line.salesOpenAt.toISOString()}::timestamptz`);
  const ids = rows.map((r) => r.id as string);
  if (ids.length) {
    await tx.execute(sql`
      update queue_tickets t set draw_key = decode(k.key, 'hex')
      from unnest(${`{${ids.join(',')}}`}::uuid[], ${`{${ids.map((id) => drawKeyOf(line.seed, id))}}`}::text[]) as
        k(id, key)
      where t.id = k.id`);
  }
  await placeLateArrivals(tx, locationId);
}

/** Tickets without a place after the draw go to the back, in the order they were written. */
export async function placeLateArrivals(tx: DbOrTx, locationId: string): Promise<number> {
  const { rows } = await tx.execute(sql`
    with base as (select coalesce(max(position), 0) as b from queue_tickets where location_id = ${locationId}::uuid),
    late as (select id, row_number() over (order by seq) as n from queue_tickets where location_id =
    ${locationId}::uuid and line_key is null)
    update queue_tickets t set position = (select b from base) + late.n from late where t.id = late.id
    returning t.id`);
  return rows.length;
}

/** Sessions of the location that a family could hold now. */
export async function freeSessions(db: DbOrTx, locationId: string, now: Date, leadCutoff: Date): Promise<number> {
  const { rows } = await db.execute(sql`
    select count(*)::int as n from slots s
    where s.location_id = ${locationId}::uuid and ${sql.raw(freeAhead('s', instant(now), instant(leadCutoff)))}`);
  return rows[0]!.n as number;
}

/** Admissions over: the family did not hold in time (or held and is done with the line). */
/**
 * Admissions that end: run out with no live hold, or unused (no hold taken since the admission)
 * for `idleSeconds`, so a family who walked away passes its turn on (issue 55).
 */
export async function closeLapsedAdmissions(
  tx: DbOrTx,
  locationId: string,
  now: Date,
  idleSeconds: number,
): Promise<number> {
  const idleSince = new Date(now.getTime() - idleSeconds * 1000).toISOString();
  const { rows } = await tx.execute(sql`
    update queue_tickets t set status = 'closed'
    where t.location_id = ${locationId}::uuid and t.status = 'admitted'
      and ((t.admitted_until <= ${now.toISOString()}::timestamptz and not ${holding(now)})
        or (t.admitted_at <= ${idleSince}::timestamptz and not exists (select 1 from reservations r
          where r.user_id = t.user_id and r.location_id = t.location_id and r.created_at >= t.admitted_at)))
    returning t.id`);
  return rows.length;
}

/** A family just admitted that chose before the opening what it will book (issue 55). */
export interface AdmittedWanting {
  userId: string;
  /** The ticket's place in the line's order (hex of `line_key`): sorts as the line does. */
  order: string;
  wants: QueueWants;
  /** Where the wants were given from, as the hold cap stores it (null: no cap was in force). */
  holdAddress: string | null;
}

/** Admits the next `count` in line; returns how many, and those among them with `wants`, in line order. */
export async function admitNext(
  tx: DbOrTx,
  args: { locationId: string; count: number; now: Date; until: Date },
): Promise<{ admitted: number; wanting: AdmittedWanting[] }> {
  if (args.count <= 0) return { admitted: 0, wanting: [] };
  const { rows } = await tx.execute(sql`
    update queue_tickets t set status = 'admitted', admitted_at = ${args.now.toISOString()}::timestamptz,
    admitted_until = ${args.until.toISOString()}::timestamptz
    where t.id in (select id from queue_tickets where location_id = ${args.locationId}::uuid and status = 'waiting'
    and line_key is not null
      order by line_key limit ${args.count})
    returning t.user_id, encode(t.line_key, 'hex') as line_order, t.wants, t.wants_address`);
  const wanting = rows
    .filter((r) => r.wants)
    .map((r) => ({
      userId: r.user_id as string,
      order: r.line_order as string,
      wants: r.wants as QueueWants,
      holdAddress: (r.wants_address as string | null) ?? null,
    }))
    .sort((x, y) => (x.order < y.order ? -1 : 1));
  return { admitted: rows.length, wanting };
}

export async function updateLineState(
  tx: DbOrTx,
  locationId: string,
  change: { freeSessions: number; bump: boolean; close: boolean; now: Date },
): Promise<void> {
  await tx.execute(sql`
    update queue_lines set free_sessions = ${change.freeSessions},
      version = version + ${change.bump ? 1 : 0},
      closed_at = case when ${change.close} then coalesce(closed_at, ${change.now.toISOString()}::timestamptz) else
      closed_at end,
      -- The drop's report: the first time nothing was left after the draw (migration 0044).
      sold_out_at = case when ${change.freeSessions} = 0 and drawn_at is not null
        then coalesce(sold_out_at, ${change.now.toISOString()}::timestamptz) else sold_out_at end
    where location_id = ${locationId}::uuid and (free_sessions <> ${change.freeSessions} or ${change.bump} or
    (${change.close} and closed_at is null))`);
}
