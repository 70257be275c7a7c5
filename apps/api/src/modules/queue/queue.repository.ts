import { sql } from 'drizzle-orm';
import type { QueueWants } from '@kringle/contracts/queue';
import type { Reservation } from '@kringle/contracts/reservations';
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

const date = (v: unknown) => (v == null ? null : new Date(v as string));

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

export interface TicketRow {
  id: string;
  userId: string;
  status: 'waiting' | 'admitted' | 'closed' | 'lapsed';
  /** The place in the line, counted in its order (decision 0117); null until the draw and until placed. */
  position: number | null;
  admittedUntil: Date | null;
  ahead: number;
  wants: QueueWants | null;
  /** Admitted: the family's live hold or unpaid checkout at the location made since its admission. */
  reservation: Reservation | null;
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

/** The wants a ticket keeps (null: none, or no ticket). */
export async function ticketWants(db: DbOrTx, locationId: string, userId: string): Promise<QueueWants | null> {
  const { rows } = await db.execute(sql`
    select wants from queue_tickets where location_id = ${locationId}::uuid and user_id = ${userId}::uuid`);
  return (rows[0]?.wants as QueueWants | null | undefined) ?? null;
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

/** An admitted ticket's hold since its admission (issue 55): joined laterally as `h`, for admitted tickets only. */
const heldSinceAdmission = (now: Date) => sql`left join lateral (
    select r.id as h_id, r.slot_id as h_slot_id, r.status as h_status, r.expires_at as h_expires_at,
      r.refreshes_left as h_refreshes_left, r.booking_id as h_booking_id
    from reservations r
    where t.status = 'admitted' and r.user_id = t.user_id and r.location_id = t.location_id
      and r.created_at >= t.admitted_at and r.status in ('active', 'checked_out')
      and r.expires_at > ${now.toISOString()}::timestamptz
    order by r.created_at desc limit 1) h on true`;

/** Whether the ticket's line has drawn: before it, places are not counted (nobody may see them). */
const drawn = sql`exists (select 1 from queue_lines q where q.location_id = t.location_id and q.drawn_at is not null)`;

const ticketColumns = sql`t.id, t.user_id, t.status, t.admitted_until, t.wants, h.*,
  case when t.line_key is not null and ${drawn} then
    (select count(*)::int + 1 from queue_tickets a where a.location_id = t.location_id and a.line_key < t.line_key)
  end as position,
  case when t.line_key is not null and ${drawn} then
    (select count(*)::int from queue_tickets a where a.location_id = t.location_id and a.status = 'waiting'
     and a.line_key < t.line_key)
  end as ahead`;

function toTicket(r: Record<string, unknown>, locationId: string): TicketRow {
  return {
    id: r.id as string,
    userId: r.user_id as string,
    status: r.status as TicketRow['status'],
    position: (r.position as number | null) ?? null,
    admittedUntil: date(r.admitted_until),
    ahead: (r.ahead as number | null) ?? 0,
    wants: (r.wants as QueueWants | null) ?? null,
    reservation: r.h_id
      ? {
          id: r.h_id as string,
          slotId: r.h_slot_id as string,
          locationId,
          status: r.h_status as Reservation['status'],
          expiresAt: date(r.h_expires_at)!.toISOString(),
          refreshesLeft: r.h_refreshes_left as number,
          bookingId: (r.h_booking_id as string | null) ?? null,
        }
      : null,
  };
}

export async function findTicket(
  db: DbOrTx,
  locationId: string,
  userId: string,
  now: Date,
): Promise<TicketRow | undefined> {
  const { rows } = await db.execute(
    sql`select ${ticketColumns} from queue_tickets t ${heldSinceAdmission(now)}
    where t.location_id = ${locationId}::uuid and t.user_id = ${userId}::uuid`,
  );
  return rows[0] ? toTicket(rows[0], locationId) : undefined;
}

/**
 * The tickets of `userIds` with their places and how many wait ahead of each (for the live
 * streams): one pass over the line in its order (queue_tickets_order_idx, no sort), the rows and
 * their holds only for those asked.
 */
export async function watchedTickets(
  db: DbOrTx,
  locationId: string,
  now: Date,
  userIds: string[],
): Promise<TicketRow[]> {
  const { rows } = await db.execute(sql`
    with ranked as (
      select a.user_id, (row_number() over w)::int as position,
        (count(*) filter (where a.status = 'waiting') over (w rows between unbounded preceding and 1 preceding))::int
        as ahead
      from queue_tickets a
      where a.location_id = ${locationId}::uuid and a.line_key is not null
        and exists (select 1 from queue_lines q where q.location_id = a.location_id and q.drawn_at is not null)
      window w as (order by a.line_key))
    select t.id, t.user_id, t.status, t.admitted_until, t.wants, p.position, p.ahead, h.*
    from queue_tickets t left join ranked p on p.user_id = t.user_id
    ${heldSinceAdmission(now)}
    where t.location_id = ${locationId}::uuid and t.user_id = any(${`{${userIds.join(',')}}`}::uuid[])`);
  return rows.map((r) => toTicket(r, locationId));
}

/**
 * What the family will book (issue 55): set or changed while its ticket waits; once admitted it
 * stays as it was (the admission holds by it). Returns whether it was written.
 */
export async function setWants(
  db: DbOrTx,
  args: { locationId: string; userId: string; wants: QueueWants; holdAddress: string | null },
): Promise<boolean> {
  const { locationId, userId } = args;
  const { rows } = await db.execute(sql`
    update queue_tickets set wants = ${JSON.stringify(args.wants)}::jsonb, wants_address = ${args.holdAddress}
    where location_id = ${locationId}::uuid and user_id = ${userId}::uuid and status = 'waiting'
    returning 1`);
  return rows.length > 0;
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
