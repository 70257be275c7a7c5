import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { moneyOfBooking, moneyOfRow } from '../order-payments/money-left';
import { holdableSession, instant } from '../sessions/session-rules.sql';

/** What a closure touches beyond its own rows: the range's sessions, their bookings and waitlist, free sessions. */

export interface Range {
  locationId: string;
  /** The location's local date-times, YYYY-MM-DDTHH:mm. */
  from: string;
  to: string;
  slotTypeId?: string | null;
}

export interface ClosedSession {
  slotId: string;
  slotTypeId: string;
  slotTypeName: string;
  startAt: Date;
  endAt: Date;
  date: string;
  blocked: boolean;
}

export async function locationOf(
  db: DbOrTx,
  id: string,
): Promise<{ id: string; name: string; timezone: string } | undefined> {
  const { rows } = await db.execute(sql`select id, name, timezone from locations where id = ${id}::uuid`);
  return rows[0] as { id: string; name: string; timezone: string } | undefined;
}

/** The instants of the range, read in the location's own time zone. */
export async function instantsOf(db: DbOrTx, range: Range): Promise<{ fromAt: Date; toAt: Date }> {
  const { rows } = await db.execute(sql`
    select (${range.from}::timestamp at time zone l.timezone) as from_at, (${range.to}::timestamp at time zone
    l.timezone) as to_at
    from locations l where l.id = ${range.locationId}::uuid`);
  return { fromAt: new Date(rows[0]!.from_at as string), toAt: new Date(rows[0]!.to_at as string) };
}

/** Sessions (not breaks) starting in [from, to), of one type if asked, blocked or not. */
export async function sessionsIn(
  db: DbOrTx,
  locationId: string,
  fromAt: Date,
  toAt: Date,
  slotTypeId: string | null,
): Promise<ClosedSession[]> {
  const { rows } = await db.execute(sql`
    select s.id, s.slot_type_id, st.name, s.start_at, s.end_at, s.blocked, to_char(s.start_at at time zone l.timezone,
    'YYYY-MM-DD') as date
    from slots s join slot_types st on st.id = s.slot_type_id join locations l on l.id = s.location_id
    where s.location_id = ${locationId}::uuid and s.kind = 'session'
      and s.start_at >= ${fromAt.toISOString()}::timestamptz and s.start_at < ${toAt.toISOString()}::timestamptz
      and (${slotTypeId}::uuid is null or s.slot_type_id = ${slotTypeId}::uuid)
    order by s.start_at, st.name`);
  return rows.map((r) => ({
    slotId: r.id as string,
    slotTypeId: r.slot_type_id as string,
    slotTypeName: r.name as string,
    startAt: new Date(r.start_at as string),
    endAt: new Date(r.end_at as string),
    date: r.date as string,
    blocked: r.blocked as boolean,
  }));
}

export interface AffectedBooking {
  bookingId: string;
  reference: string;
  status: 'payment_pending' | 'payment_failed' | 'completed';
  /** What its refund gives back: left on its order after earlier refunds (money-left.ts). */
  paidCents: number;
}

/** Live bookings on the sessions (paid, or being paid), not yet checked in: each gets the remedy. */
export async function bookingsOn(db: DbOrTx, slotIds: string[]): Promise<AffectedBooking[]> {
  if (slotIds.length === 0) return [];
  const { rows } = await db.execute(sql`
    select b.id, b.reference, b.status,
      ${moneyOfBooking(sql`b.id`)} as money
    from bookings b join slots s on s.id = b.slot_id
    where b.slot_id in (${sql.join(
      slotIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})
      and b.status in ('payment_pending', 'payment_failed', 'completed') and b.checked_in_at is null
    order by s.start_at, b.reference`);
  return rows.map((r) => ({
    bookingId: r.id as string,
    reference: r.reference as string,
    status: r.status as AffectedBooking['status'],
    paidCents: moneyOfRow(r.money).leftCents,
  }));
}

export interface FreeSession {
  slotId: string;
  locationId: string;
  locationName: string;
  timezone: string;
  slotTypeId: string;
  slotTypeName: string;
  startAt: Date;
  endAt: Date;
}

/**
 * Free sessions of the same session types (by slug) outside the closed range, nearest in time to
 * `near`, the same location first and another only when none is left there. `lock` claims them for
 * an offer (SKIP LOCKED: two workers never hold the same one).
 */
export async function freeSessionsNear(
  db: DbOrTx,
  args: {
    locationId: string;
    slotTypeIds: string[];
    near: Date;
    now: Date;
    leadCutoff: Date;
    limit: number;
    lock?: boolean;
  },
): Promise<FreeSession[]> {
  if (args.slotTypeIds.length === 0) return [];
  const { rows } = await db.execute(sql`
    select s.id, s.location_id, l.name as location_name, l.timezone, s.slot_type_id, st.name as type_name, s.start_at,
    s.end_at
    from slots s join slot_types st on st.id = s.slot_type_id join locations l on l.id = s.location_id
    where st.slug in (select slug from slot_types where id in (${sql.join(
      args.slotTypeIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )}))
      and ${sql.raw(holdableSession('s', instant(args.now), instant(args.leadCutoff)))}
    order by (s.location_id <> ${args.locationId}::uuid), abs(extract(epoch from s.start_at -
    ${args.near.toISOString()}::timestamptz)), s.start_at
    limit ${args.limit} ${args.lock ? sql`for update of s skip locked` : sql``}`);
  return rows.map((r) => ({
    slotId: r.id as string,
    locationId: r.location_id as string,
    locationName: r.location_name as string,
    timezone: r.timezone as string,
    slotTypeId: r.slot_type_id as string,
    slotTypeName: r.type_name as string,
    startAt: new Date(r.start_at as string),
    endAt: new Date(r.end_at as string),
  }));
}

export interface WaitingFamily {
  entryId: string;
  email: string;
  firstName: string;
  slotTypeName: string;
  date: string;
  /** No open session of that type is left on that day. */
  dayGone: boolean;
}

/** Live waitlist entries for the days and types of closed sessions (run after the sessions are blocked). */
export async function waitingFor(tx: Tx, locationId: string, slotIds: string[]): Promise<WaitingFamily[]> {
  if (slotIds.length === 0) return [];
  const { rows } = await tx.execute(sql`
    with days as (
      select distinct s.slot_type_id, (s.start_at at time zone l.timezone)::date as date, l.timezone
      from slots s join locations l on l.id = s.location_id where s.id in (${sql.join(
        slotIds.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})
    )
    select w.id, u.email, u.first_name, st.name, to_char(w.date, 'YYYY-MM-DD') as date,
      not exists (select 1 from slots o where o.location_id = w.location_id and o.slot_type_id = w.slot_type_id and
      o.kind = 'session'
        and not o.blocked and (o.start_at at time zone d.timezone)::date = w.date) as day_gone
    from waitlist_entries w join days d on d.slot_type_id = w.slot_type_id and d.date = w.date
      join users u on u.id = w.user_id join slot_types st on st.id = w.slot_type_id
    where w.location_id = ${locationId}::uuid and w.status in ('waiting', 'offered')
    for update of w`);
  return rows.map((r) => ({
    entryId: r.id as string,
    email: r.email as string,
    firstName: r.first_name as string,
    slotTypeName: r.name as string,
    date: r.date as string,
    dayGone: r.day_gone as boolean,
  }));
}

/**
 * Locks the live bookings on the sessions, in id order (two closures never deadlock), before the
 * sessions are blocked: booking before session, the order a reschedule and the webhook take
 * (issue 48). A booking that moved off them while this waited is re-read after its lock and left
 * out; one that waits on these locks to move finds its session closed.
 */
export async function lockBookingsOn(tx: Tx, slotIds: string[]): Promise<void> {
  if (slotIds.length === 0) return;
  await tx.execute(sql`
    select b.id from bookings b
    where b.slot_id in (${sql.join(
      slotIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})
      and b.status in ('payment_pending', 'payment_failed', 'completed') and b.checked_in_at is null
    order by b.id for update`);
}

/** The claimed row's booking, locked: still on a closed session? (It may have moved before the closure locked it.) */
export async function stillOnClosedSession(tx: Tx, bookingId: string): Promise<boolean> {
  const { rows } = await tx.execute(sql`
    select s.blocked from bookings b join slots s on s.id = b.slot_id where b.id = ${bookingId}::uuid for update of b`);
  return rows[0]?.blocked === true;
}
