import { sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { offerFromWaitlist } from '../sessions/system-holds.repository';
import { instant, upcomingBookingsOf } from '../sessions/session-rules.sql';
import { bookedOnDay, freeNow, onDay } from './waitlist.repository';

export interface FreeSlot {
  id: string;
  locationId: string;
  slotTypeId: string;
  day: string;
  startAt: Date;
  timezone: string;
  locationName: string;
  slotTypeName: string;
}

/**
 * Locks the session if it could be held right now (the hold statements' conditions, without the
 * waitlist guard: this is the waitlist's own claim). SKIP LOCKED: a process already handing it
 * off, or a hold being written, makes this one step aside instead of queueing behind it.
 */
export async function lockFreeSlot(tx: Tx, slotId: string, now: Date, leadCutoff: Date): Promise<FreeSlot | undefined> {
  const r = await tx.execute(sql`
    select s.id, s.location_id, s.slot_type_id, to_char(s.start_at at time zone l.timezone, 'YYYY-MM-DD') as day,
    s.start_at,
      l.timezone, l.name as location_name, t.name as slot_type_name
    from slots s join locations l on l.id = s.location_id join slot_types t on t.id = s.slot_type_id
    where s.id = ${slotId}::uuid and ${freeNow(now, leadCutoff)}
    for update of s skip locked`);
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    id: row.id as string,
    locationId: row.location_id as string,
    slotTypeId: row.slot_type_id as string,
    day: row.day as string,
    startAt: new Date(row.start_at as string),
    timezone: row.timezone as string,
    locationName: row.location_name as string,
    slotTypeName: row.slot_type_name as string,
  };
}

export interface NextFamily {
  entryId: string;
  userId: string;
  email: string;
  firstName: string;
  bookedThatDay: boolean;
  /** Paid or being-paid bookings still ahead (the per-account limit counts these). */
  upcoming: number;
}

/** The first waiting family for the slot's day, locked (SKIP LOCKED: one being served or leaving is passed over). */
export async function lockNextInLine(tx: Tx, slot: FreeSlot, now: Date): Promise<NextFamily | undefined> {
  const r = await tx.execute(sql`
    select w.id, w.user_id, u.email, u.first_name, ${bookedOnDay(sql`w.user_id`, sql`w.date`)} as booked,
      ${sql.raw(upcomingBookingsOf('w.user_id', instant(now)))} as upcoming
    from waitlist_entries w join users u on u.id = w.user_id
    where w.status = 'waiting' and w.location_id = ${slot.locationId}::uuid and w.slot_type_id =
    ${slot.slotTypeId}::uuid
      and w.date = ${slot.day}::date
    order by w.seq
    limit 1
    for update of w skip locked`);
  const row = r.rows[0];
  if (!row) return undefined;
  return {
    entryId: row.id as string,
    userId: row.user_id as string,
    email: row.email as string,
    firstName: row.first_name as string,
    bookedThatDay: row.booked as boolean,
    upcoming: row.upcoming as number,
  };
}

/** The offer: a hold of that family on the (locked) slot (sessions/), and the entry marked offered. */
export async function makeOffer(
  tx: Tx,
  args: {
    reservationId: string;
    slot: FreeSlot;
    family: NextFamily;
    expiresAt: Date;
    refreshesLeft: number;
    now: Date;
  },
): Promise<void> {
  const now = args.now.toISOString();
  await offerFromWaitlist(tx, {
    reservationId: args.reservationId,
    userId: args.family.userId,
    slotId: args.slot.id,
    locationId: args.slot.locationId,
    waitlistEntryId: args.family.entryId,
    expiresAt: args.expiresAt,
    refreshesLeft: args.refreshesLeft,
    now: args.now,
  });
  await tx.execute(sql`
    update waitlist_entries set status = 'offered', reservation_id = ${args.reservationId}::uuid, offered_at =
    ${now}::timestamptz, updated_at = ${now}::timestamptz
    where id = ${args.family.entryId}::uuid`);
}

/**
 * Sessions that could be held now on days someone waits for: what the hand-off has not placed
 * yet (a hold that lapsed without any write, a free whose announcement was missed). Driven by the
 * waiting entries, one probe of the slots index per waited day.
 */
export async function freeSlotsOnWaitedDays(
  db: Db,
  now: Date,
  leadCutoff: Date,
  only?: { locationId: string; slotTypeId: string; date: string },
  limit = 200,
): Promise<string[]> {
  const filter = only
    ? sql`and location_id = ${only.locationId}::uuid and slot_type_id =
${only.slotTypeId}::uuid and date = ${only.date}::date`
    : sql``;
  const r = await db.execute(sql`
    select s.id from (select distinct location_id, slot_type_id, date from waitlist_entries where status = 'waiting'
    ${filter}) d
      join locations l on l.id = d.location_id
      join slots s on s.location_id = d.location_id and s.slot_type_id = d.slot_type_id and ${onDay(sql`d.date`)}
    where ${freeNow(now, leadCutoff)}
    order by s.start_at limit ${limit}`);
  return r.rows.map((row) => row.id as string);
}

export interface SettledOffer {
  entryId: string;
  reservationId: string;
  slotId: string;
  /** The booking the offer was checked out into, if any. */
  bookingId: string | null;
  outcome: 'booked' | 'lapsed';
  /** The reservation's own state: a lapsed one still 'active' must be closed and its session let go. */
  reservationStatus: string;
}

/**
 * Offers whose hold is no longer live, locked: paid (the entry ends as booked), or declined,
 * lapsed, or lapsed while being paid (the family leaves that day's line). A checkout under way
 * while its hold lives is left alone.
 */
export async function lockSettledOffers(tx: Tx, now: Date, limit = 100): Promise<SettledOffer[]> {
  const r = await tx.execute(sql`
    select w.id, w.reservation_id, r.status as r_status, r.slot_id, b.id as booking_id,
      coalesce(b.status = 'completed', false) as paid
    from waitlist_entries w join reservations r on r.id = w.reservation_id
      left join bookings b on b.id = r.booking_id
    where w.status = 'offered'
      and (r.status in ('cancelled', 'expired') or r.expires_at <= ${now.toISOString()}::timestamptz or b.status =
      'completed')
    order by w.offered_at
    limit ${limit}
    for update of w skip locked`);
  return r.rows.map((row) => ({
    entryId: row.id as string,
    reservationId: row.reservation_id as string,
    slotId: row.slot_id as string,
    bookingId: (row.booking_id as string | null) ?? null,
    outcome: row.paid ? 'booked' : 'lapsed',
    reservationStatus: row.r_status as string,
  }));
}

/** Entries that can no longer be served: the day has passed at the location, or the family booked it some other way. */
export async function endStaleEntries(db: Db, now: Date): Promise<number> {
  const at = now.toISOString();
  // SKIP LOCKED: processes running this at once, or a hand-off serving one of them, never wait on each other.
  const r = await db.execute(sql`
    with stale as (
      select w.id, w.date < (${at}::timestamptz at time zone l.timezone)::date as passed
      from waitlist_entries w join locations l on l.id = w.location_id
      where w.status = 'waiting'
        and (w.date < (${at}::timestamptz at time zone l.timezone)::date or ${bookedOnDay(sql`w.user_id`, sql`w.date`)})
      for update of w skip locked
    )
    update waitlist_entries w set status = case when stale.passed then 'ended' else 'booked' end,
      ended_at = ${at}::timestamptz, updated_at = ${at}::timestamptz
    from stale where w.id = stale.id`);
  return r.rowCount ?? 0;
}
