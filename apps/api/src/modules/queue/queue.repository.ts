import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/** A location's line as stored (decision 0053); `line` fields are null before the line first opened. */
export interface LineRow {
  locationId: string;
  name: string;
  salesOpenAt: Date | null;
  opensMinutesBefore: number;
  seed: string | null;
  seedHash: string | null;
  lineSalesOpenAt: Date | null;
  drawnAt: Date | null;
  paused: boolean;
  closedAt: Date | null;
  freeSessions: number;
  version: number;
  hasLine: boolean;
}

/** A timestamp column as read (a string, or null). */
export const date = (v: unknown) => (v == null ? null : new Date(v as string));

export async function findLine(db: DbOrTx, locationId: string): Promise<LineRow | undefined> {
  const { rows } = await db.execute(sql`
    select l.id, l.name, l.sales_open_at, l.queue_opens_minutes_before, q.seed, q.seed_hash, q.sales_open_at as
    line_open,
      q.drawn_at, coalesce(q.paused, false) as paused, q.closed_at, coalesce(q.free_sessions, 0)::int as free_sessions,
      coalesce(q.version, 0)::int as version, q.location_id is not null as has_line
    from locations l left join queue_lines q on q.location_id = l.id
    where l.id = ${locationId}::uuid`);
  const r = rows[0];
  if (!r) return undefined;
  return {
    locationId: r.id as string,
    name: r.name as string,
    salesOpenAt: date(r.sales_open_at),
    opensMinutesBefore: r.queue_opens_minutes_before as number,
    seed: (r.seed as string | null) ?? null,
    seedHash: (r.seed_hash as string | null) ?? null,
    lineSalesOpenAt: date(r.line_open),
    drawnAt: date(r.drawn_at),
    paused: r.paused as boolean,
    closedAt: date(r.closed_at),
    freeSessions: r.free_sessions as number,
    version: r.version as number,
    hasLine: r.has_line as boolean,
  };
}

/** Locations whose line may matter now: a queue, a sales opening, and the line not over. */
export async function queuedLocations(
  db: DbOrTx,
): Promise<{ locationId: string; salesOpenAt: Date; opensMinutesBefore: number; closed: boolean }[]> {
  const { rows } = await db.execute(sql`
    select l.id, l.sales_open_at, l.queue_opens_minutes_before, q.closed_at is not null and q.sales_open_at =
    l.sales_open_at as closed
    from locations l left join queue_lines q on q.location_id = l.id
    where l.queue_opens_minutes_before > 0 and l.sales_open_at is not null`);
  return rows.map((r) => ({
    locationId: r.id as string,
    salesOpenAt: new Date(r.sales_open_at as string),
    opensMinutesBefore: r.queue_opens_minutes_before as number,
    closed: Boolean(r.closed),
  }));
}

/**
 * The line row, written once when the line opens (the seed's hash published from then on). A
 * season reloaded with another opening before the draw moves it and draws a fresh seed; after
 * the draw a new opening starts a new line.
 */
export async function openLine(
  db: DbOrTx,
  args: { locationId: string; salesOpenAt: Date; seed: string; seedHash: string },
): Promise<void> {
  // Tickets of an earlier opening's line start over with the new one.
  await db.execute(sql`
    with moved as (
      insert into queue_lines (location_id, sales_open_at, seed, seed_hash)
      values (${args.locationId}::uuid, ${args.salesOpenAt.toISOString()}::timestamptz, ${args.seed}, ${args.seedHash})
      on conflict (location_id) do update set sales_open_at = excluded.sales_open_at, seed = excluded.seed, seed_hash
      = excluded.seed_hash,
        drawn_at = null, closed_at = null, paused = false, version = queue_lines.version + 1
      where queue_lines.sales_open_at <> excluded.sales_open_at
      returning (xmax <> 0) as replaced)
    delete from queue_tickets where location_id = ${args.locationId}::uuid and exists (select 1 from moved where
    replaced)`);
}

/**
 * A new ticket: its id, and for an entrant (joined before the opening) its draw key in hex
 * (decision 0117); `position` places a later arrival at the back.
 */
export interface NewTicket {
  id: string;
  locationId: string;
  userId: string;
  now: Date;
  drawKey: string | null;
  position: number | null;
}

/** The values of a new ticket's row in `(id, location_id, user_id, joined_at, draw_key, position)` order. */
export const newTicketValues = (t: NewTicket) =>
  sql`${t.id}::uuid, ${t.locationId}::uuid, ${t.userId}::uuid, ${t.now.toISOString()}::timestamptz,
    decode(${t.drawKey}::text, 'hex'), ${t.position}::int`;

/**
 * Joins the line: one place per account and location (the unique index settles racing tabs and
 * processes). Returns whether this call made the ticket (false: the account had one already).
 */
export async function insertTicket(db: DbOrTx, args: NewTicket): Promise<boolean> {
  const { rows } = await db.execute(sql`
    insert into queue_tickets (id, location_id, user_id, joined_at, draw_key, position)
    values (${newTicketValues(args)})
    on conflict (location_id, user_id) do nothing returning 1`);
  return rows.length > 0;
}

export async function nextBackPosition(db: DbOrTx, locationId: string): Promise<number> {
  const { rows } = await db.execute(
    sql`select coalesce(max(position), 0)::int + 1 as next from queue_tickets where location_id = ${locationId}::uuid`,
  );
  return rows[0]!.next as number;
}

/** Serializes the draw, late joins and admission passes of one location (transaction-scoped). */
export async function lockLine(tx: DbOrTx, locationId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('kringle_queue'), hashtext(${locationId}))`);
}
export async function tryLockLine(tx: DbOrTx, locationId: string): Promise<boolean> {
  const { rows } = await tx.execute(
    sql`select pg_try_advisory_xact_lock(hashtext('kringle_queue'), hashtext(${locationId})) as ok`,
  );
  return rows[0]!.ok as boolean;
}

/** The draw's entrants: tickets that joined before the opening instant. */
export async function entrantIds(db: DbOrTx, locationId: string, salesOpenAt: Date): Promise<string[]> {
  const { rows } = await db.execute(sql`
    select id from queue_tickets where location_id = ${locationId}::uuid and joined_at <
    ${salesOpenAt.toISOString()}::timestamptz order by id`);
  return rows.map((r) => r.id as string);
}

/**
 * After the draw: the entrants in drawn order, by their keys (bytea sorts as their hex). Lines drawn
 * before decision 0117 marked theirs `in_draw`, in `position` order.
 */
export async function drawnEntrants(db: DbOrTx, locationId: string): Promise<string[]> {
  const { rows } = await db.execute(sql`
    select id from queue_tickets where location_id = ${locationId}::uuid and (draw_key is not null or in_draw)
    order by draw_key nulls last, position, id`);
  return rows.map((r) => r.id as string);
}

/** Live holds or unpaid checkouts of a family at the location. */
export const holding = (
  now: Date,
) => sql`exists (select 1 from reservations r where r.user_id = t.user_id and r.location_id = t.location_id
  and r.status in ('active', 'checked_out') and r.expires_at > ${now.toISOString()}::timestamptz)`;

export async function lineCounts(
  db: DbOrTx,
  locationId: string,
  now: Date,
): Promise<{ waiting: number; admittedNotHolding: number; holding: number; admittedRecently: number }> {
  const n = now.toISOString();
  const { rows } = await db.execute(sql`
    select count(*) filter (where t.status = 'waiting')::int as waiting,
      count(*) filter (where t.status = 'admitted' and t.admitted_until > ${n}::timestamptz and not
      ${holding(now)})::int as admitted_not_holding,
      count(*) filter (where t.status = 'admitted' and ${holding(now)})::int as holding,
      count(*) filter (where t.admitted_at > ${n}::timestamptz - interval '5 minutes')::int as admitted_recently
    from queue_tickets t where t.location_id = ${locationId}::uuid`);
  const r = rows[0]!;
  return {
    waiting: r.waiting as number,
    admittedNotHolding: r.admitted_not_holding as number,
    holding: r.holding as number,
    admittedRecently: r.admitted_recently as number,
  };
}

/** Pauses or resumes admissions; whether the line was paused before (null: no line), for the audit entry. */
export async function setPaused(
  db: DbOrTx,
  locationId: string,
  paused: boolean,
): Promise<{ wasPaused: boolean } | null> {
  const { rows } = await db.execute(sql`
    update queue_lines q set paused = ${paused}, version = q.version + 1
    from (select location_id, coalesce(paused, false) as paused from queue_lines where location_id =
    ${locationId}::uuid for update) old
    where q.location_id = old.location_id returning old.paused as was_paused`);
  return rows[0] ? { wasPaused: rows[0].was_paused as boolean } : null;
}

export async function hasLiveAdmission(db: DbOrTx, locationId: string, userId: string, now: Date): Promise<boolean> {
  const { rows } = await db.execute(sql`
    select 1 from queue_tickets where location_id = ${locationId}::uuid and user_id = ${userId}::uuid
      and status = 'admitted' and admitted_until > ${now.toISOString()}::timestamptz`);
  return rows.length > 0;
}

export async function slotLocation(db: DbOrTx, slotId: string): Promise<string | undefined> {
  const { rows } = await db.execute(sql`select location_id from slots where id = ${slotId}::uuid`);
  return rows[0]?.location_id as string | undefined;
}

export async function soldSince(db: DbOrTx, locationId: string, since: Date): Promise<number> {
  const { rows } = await db.execute(sql`
    select count(*)::int as n from bookings b join slots s on s.id = b.slot_id
    where s.location_id = ${locationId}::uuid and b.status = 'completed' and b.created_at >=
    ${since.toISOString()}::timestamptz`);
  return rows[0]!.n as number;
}
