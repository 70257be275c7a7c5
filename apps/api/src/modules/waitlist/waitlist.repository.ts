import { sql, type SQL } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { holdableSession, instant, LIVE_BOOKING_STATUSES, noOneWaitingFor } from '../sessions/session-rules.sql';

/** `s` (a slots row) could be held right now: the hold statements' own conditions, waitlist aside. */
export const freeNow = (now: Date, leadCutoff: Date): SQL =>
  sql.raw(holdableSession('s', instant(now), instant(leadCutoff)));

/** `s` starts on local date `day` (column or parameter) of its location `l`. */
export const onDay = (day: SQL): SQL => sql`
  s.start_at >= (${day}::timestamp at time zone l.timezone) and s.start_at < ((${day} + 1)::timestamp at time zone
  l.timezone)`;

/** Family `userId` has a live booking on local date `day` at any location (its own zone). */
export const bookedOnDay = (userId: SQL, day: SQL): SQL => sql`exists (
  select 1 from bookings b join slots bs on bs.id = b.slot_id join locations bl on bl.id = bs.location_id
  where b.user_id = ${userId} and b.status in ${sql.raw(LIVE_BOOKING_STATUSES)} and (bs.start_at at time zone
  bl.timezone)::date = ${day})`;

/** Serializes one family's joins (the limit is counted, then an entry inserted). */
export async function lockFamily(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`select id from users where id = ${userId}::uuid for update`);
}

export async function liveEntryCount(tx: Tx, userId: string): Promise<number> {
  const r = await tx.execute(
    sql`select count(*)::int as n from waitlist_entries where user_id =
${userId}::uuid and status in ('waiting', 'offered')`,
  );
  return r.rows[0]!.n as number;
}

export async function hasLiveEntryFor(
  tx: Tx,
  args: { userId: string; locationId: string; slotTypeId: string; date: string },
): Promise<boolean> {
  const r = await tx.execute(sql`
    select 1 from waitlist_entries where user_id = ${args.userId}::uuid and location_id = ${args.locationId}::uuid
      and slot_type_id = ${args.slotTypeId}::uuid and date = ${args.date}::date and status in ('waiting', 'offered')`);
  return r.rows.length > 0;
}

export async function isBookedOnDay(db: DbOrTx, userId: string, date: string): Promise<boolean> {
  const r = await db.execute(sql`select ${bookedOnDay(sql`${userId}::uuid`, sql`${date}::date`)} as booked`);
  return r.rows[0]!.booked as boolean;
}

/** What the day holds for a would-be joiner: sessions still ahead at all, and any one on sale now. */
export async function dayOutlook(
  db: DbOrTx,
  args: { locationId: string; slotTypeId: string; date: string; now: Date; leadCutoff: Date },
): Promise<{ sessionsAhead: number; available: number }> {
  const r = await db.execute(sql`
    select count(*) filter (where s.kind = 'session' and not s.blocked and s.start_at >=
    ${args.leadCutoff.toISOString()}::timestamptz)::int as ahead,
      count(*) filter (where ${freeNow(args.now, args.leadCutoff)} and ${sql.raw(noOneWaitingFor('s'))})::int as
      available
    from slots s join locations l on l.id = s.location_id
    where s.location_id = ${args.locationId}::uuid and s.slot_type_id = ${args.slotTypeId}::uuid and
    ${onDay(sql`${args.date}::date`)}`);
  return { sessionsAhead: r.rows[0]!.ahead as number, available: r.rows[0]!.available as number };
}

export async function insertEntry(
  tx: Tx,
  args: { userId: string; locationId: string; slotTypeId: string; date: string; now: Date },
): Promise<string> {
  const r = await tx.execute(sql`
    insert into waitlist_entries (user_id, location_id, slot_type_id, date, status, created_at, updated_at)
    values (${args.userId}::uuid, ${args.locationId}::uuid, ${args.slotTypeId}::uuid, ${args.date}::date, 'waiting',
    ${args.now.toISOString()}::timestamptz, ${args.now.toISOString()}::timestamptz)
    returning id`);
  return r.rows[0]!.id as string;
}

export interface EntryRow {
  id: string;
  locationId: string;
  slotTypeId: string;
  date: string;
  status: 'waiting' | 'offered';
  position: number;
  createdAt: Date;
  offer: { reservationId: string; slotId: string; startAt: Date; expiresAt: Date } | null;
}

/** Still in the line: waiting, or offered with the offer's hold alive and not yet checked out. */
const live = (w: string, r: string, now: Date): SQL =>
  sql`(${sql.raw(w)}.status = 'waiting' or
(${sql.raw(w)}.status = 'offered' and ${sql.raw(r)}.status = 'active' and ${sql.raw(r)}.expires_at >
  ${now.toISOString()}::timestamptz))`;

/**
 * A family's live entries with their place in the line: 1 + the live entries for the same day
 * that joined before (a family holding an offer is still ahead until it books or lets it go).
 * An entry the family has booked its day for, or whose offer has lapsed, is left out at once,
 * before the waitlist job marks it.
 */
export async function listLiveEntries(db: DbOrTx, userId: string, now: Date, entryId?: string): Promise<EntryRow[]> {
  const r = await db.execute(sql`
    select w.id, w.location_id, w.slot_type_id, to_char(w.date, 'YYYY-MM-DD') as date, w.status, w.created_at,
      r.id as reservation_id, r.slot_id, s.start_at, r.expires_at,
      1 + (select count(*)::int from waitlist_entries o left join reservations orr on orr.id = o.reservation_id
        where o.location_id = w.location_id and o.slot_type_id = w.slot_type_id and o.date = w.date
          and o.seq < w.seq and ${live('o', 'orr', now)}) as position
    from waitlist_entries w
      left join reservations r on r.id = w.reservation_id
      left join slots s on s.id = r.slot_id
    where w.user_id = ${userId}::uuid and w.status in ('waiting', 'offered') and ${live('w', 'r', now)}
      ${entryId ? sql`and w.id = ${entryId}::uuid` : sql``}
      and not ${bookedOnDay(sql`w.user_id`, sql`w.date`)}
    order by w.date, w.seq`);
  return r.rows.map((row) => ({
    id: row.id as string,
    locationId: row.location_id as string,
    slotTypeId: row.slot_type_id as string,
    date: row.date as string,
    status: row.status as EntryRow['status'],
    position: row.position as number,
    createdAt: new Date(row.created_at as string),
    offer:
      row.status === 'offered' && row.reservation_id
        ? {
            reservationId: row.reservation_id as string,
            slotId: row.slot_id as string,
            startAt: new Date(row.start_at as string),
            expiresAt: new Date(row.expires_at as string),
          }
        : null,
  }));
}

/** The family's own live entry, locked; undefined for anyone else's or an ended one. */
export async function lockLiveEntry(
  tx: Tx,
  id: string,
  userId: string,
): Promise<{ id: string; status: string; reservationId: string | null } | undefined> {
  const r = await tx.execute(sql`
    select id, status, reservation_id from waitlist_entries
    where id = ${id}::uuid and user_id = ${userId}::uuid and status in ('waiting', 'offered') for update`);
  const row = r.rows[0];
  return row
    ? {
        id: row.id as string,
        status: row.status as string,
        reservationId: (row.reservation_id as string | null) ?? null,
      }
    : undefined;
}

export async function endEntry(
  tx: Tx,
  id: string,
  status: 'booked' | 'left' | 'lapsed' | 'ended',
  now: Date,
): Promise<void> {
  await tx.execute(sql`
    update waitlist_entries set status = ${status}, ended_at = ${now.toISOString()}::timestamptz, updated_at =
    ${now.toISOString()}::timestamptz
    where id = ${id}::uuid`);
}
