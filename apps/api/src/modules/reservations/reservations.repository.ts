import { and, eq, isNull, sql } from 'drizzle-orm';
import type pg from 'pg';
import type { DbOrTx, Tx } from '../../db/client';
import { locations, slots } from '../../db/schema/catalogue';
import { reservations } from '../../db/schema/reservations';
import { noOneWaitingFor } from './waitlist-guard';

export type ReservationRow = typeof reservations.$inferSelect;

export async function findReservation(db: DbOrTx, id: string, userId: string): Promise<ReservationRow | undefined> {
  const [row] = await db.select().from(reservations).where(and(eq(reservations.id, id), eq(reservations.userId, userId)));
  return row;
}

export async function lockReservation(tx: Tx, id: string, userId: string): Promise<ReservationRow | undefined> {
  const [row] = await tx.select().from(reservations).where(and(eq(reservations.id, id), eq(reservations.userId, userId))).for('update');
  return row;
}

/** Ends the customer's active holds (a new hold replaces the old; waitlist offers stay) and frees their sessions; their slot ids. */
export async function releaseActiveHolds(tx: Tx, userId: string, now: Date): Promise<string[]> {
  const released = await tx
    .update(reservations)
    .set({ status: sql`case when ${reservations.expiresAt} <= ${now.toISOString()}::timestamptz then 'expired' else 'cancelled' end`, updatedAt: now })
    .where(and(eq(reservations.userId, userId), eq(reservations.status, 'active'), isNull(reservations.waitlistEntryId)))
    .returning({ id: reservations.id, slotId: reservations.slotId });
  for (const r of released) await clearSlotHold(tx, r.id);
  return released.map((r) => r.slotId);
}

export async function insertReservation(
  tx: Tx,
  values: { userId: string; slotId: string; locationId: string; expiresAt: Date; refreshesLeft: number; bookingId: string | null; now: Date },
): Promise<ReservationRow> {
  const [row] = await tx
    .insert(reservations)
    .values({ ...values, status: 'active', createdAt: values.now, updatedAt: values.now })
    .returning();
  return row!;
}

/**
 * The hold: one conditional UPDATE on the slot row. PostgreSQL re-checks the WHERE clause after
 * waiting for a concurrent writer's row lock, so of any number of racers exactly one gets a row.
 */
export async function claimSlot(
  tx: Tx,
  args: { slotId: string; reservationId: string; expiresAt: Date; now: Date; leadCutoff: Date },
): Promise<boolean> {
  const result = await tx.execute(sql`
    update slots set hold_reservation_id = ${args.reservationId}::uuid, hold_expires_at = ${args.expiresAt.toISOString()}::timestamptz
    where id = ${args.slotId}::uuid and kind = 'session' and not blocked and booking_id is null
      and start_at >= ${args.leadCutoff.toISOString()}::timestamptz
      and (hold_expires_at is null or hold_expires_at <= ${args.now.toISOString()}::timestamptz)
      and not exists (select 1 from locations l where l.id = slots.location_id and l.sales_open_at > ${args.now.toISOString()}::timestamptz)
      and ${sql.raw(noOneWaitingFor('slots'))}`);
  return result.rowCount === 1;
}

export interface QuickHoldArgs {
  reservationId: string;
  userId: string;
  slotId: string;
  expiresAt: Date;
  refreshesLeft: number;
  now: Date;
  leadCutoff: Date;
  bookingLimit: number;
}

/** What a hold statement reads about the session and the customer (quickHold, batchHold). */
export interface HoldTargetRow {
  upcoming: number;
  location_id: string | null;
  held_by_me: boolean;
  taken_before: boolean;
  holder_id: string | null;
  hold_expires_at: Date | null;
  /** The location's bookings open after the statement's now: nothing was claimed (not "taken"). */
  not_open: boolean;
}

export interface QuickHoldOutcome {
  /** Null when the slot does not exist. */
  slotLocationId: string | null;
  upcomingBookings: number;
  /** The slot is held by this customer's own live reservation (re-picking the same session). */
  heldByMe: boolean;
  held: boolean;
  /**
   * Already taken when the statement began (booked, blocked, too soon or held by a live hold), as
   * opposed to lost to a racer that committed meanwhile; with the live hold's holder and end.
   */
  takenBefore: { holderId: string | null; holdExpiresAt: Date | null } | null;
  /** The location's bookings were not open yet at the statement's now. */
  notOpen: boolean;
}

/**
 * A customer without a live hold takes a session in one statement, so a drop-day racer costs
 * one round trip whether it wins or loses: the booking-limit count, the claim (the same
 * conditional UPDATE as claimSlot) and the reservation insert. A customer who still has an
 * active hold makes the insert hit reservations_one_active_per_user (23505): the statement
 * changes nothing and the caller takes the general path that releases the old hold first.
 */
export async function quickHold(pool: Pick<pg.Pool, 'query'>, args: QuickHoldArgs): Promise<QuickHoldOutcome> {
  const result = await pool.query<HoldTargetRow & { held: number }>({
    // Named: each connection parses and plans it once, then only binds values.
    name: 'kringle-quick-hold',
    text: QUICK_HOLD_SQL,
    values: [
      args.userId,
      args.slotId,
      args.reservationId,
      args.expiresAt,
      args.now,
      args.leadCutoff,
      args.bookingLimit,
      args.refreshesLeft,
    ],
  });
  const row = result.rows[0]!;
  return {
    slotLocationId: row.location_id,
    upcomingBookings: row.upcoming,
    heldByMe: row.held_by_me,
    held: row.held === 1,
    takenBefore: row.taken_before ? { holderId: row.holder_id, holdExpiresAt: row.hold_expires_at } : null,
    notOpen: row.not_open,
  };
}

/** $1 user, $2 slot, $3 new reservation id, $4 expires at, $5 now, $6 lead cutoff, $7 booking limit, $8 refreshes. */
const QUICK_HOLD_SQL = `
  with upcoming as (
    select count(*)::int as n from bookings b join slots s on s.id = b.slot_id
    where b.user_id = $1::uuid and b.status in ('payment_pending', 'completed') and s.start_at > $5::timestamptz
  ), target as (
    select s.location_id, coalesce(r.user_id = $1::uuid, false) as held_by_me,
      (s.kind <> 'session' or s.blocked or s.booking_id is not null or s.start_at < $6::timestamptz
        or coalesce(s.hold_expires_at > $5::timestamptz, false)) as taken_before,
      case when s.hold_expires_at > $5::timestamptz then r.user_id end as holder_id,
      case when s.hold_expires_at > $5::timestamptz then s.hold_expires_at end as hold_expires_at,
      coalesce(l.sales_open_at > $5::timestamptz, false) as not_open
    from slots s join locations l on l.id = s.location_id
      left join reservations r on r.id = s.hold_reservation_id and r.status = 'active'
    where s.id = $2::uuid
  ), claimed as (
    update slots set hold_reservation_id = $3::uuid, hold_expires_at = $4::timestamptz
    where id = $2::uuid and kind = 'session' and not blocked and booking_id is null
      and start_at >= $6::timestamptz
      and (hold_expires_at is null or hold_expires_at <= $5::timestamptz)
      and (select n from upcoming) < $7::int
      -- Opening time is checked here, in the claim itself, so no attempt wins a moment early.
      and not exists (select 1 from locations l where l.id = slots.location_id and l.sales_open_at > $5::timestamptz)
      and ${noOneWaitingFor('slots')}
    returning id, location_id
  ), inserted as (
    insert into reservations (id, user_id, slot_id, location_id, status, expires_at, refreshes_left, booking_id, created_at, updated_at)
    select $3::uuid, $1::uuid, id, location_id, 'active', $4::timestamptz, $8::int, null, $5::timestamptz, $5::timestamptz
    from claimed
    returning id
  )
  select (select n from upcoming) as upcoming, (select count(*)::int from inserted) as held, t.location_id,
    coalesce(t.held_by_me, false) as held_by_me, coalesce(t.taken_before, false) as taken_before, t.holder_id, t.hold_expires_at,
    coalesce(t.not_open, false) as not_open
  from (select 1) as one left join target t on true`;

/** Extends a hold only while this reservation still owns the slot. */
export async function extendSlotHold(tx: Tx, reservationId: string, expiresAt: Date): Promise<boolean> {
  const result = await tx.update(slots).set({ holdExpiresAt: expiresAt }).where(eq(slots.holdReservationId, reservationId));
  return (result.rowCount ?? 0) === 1;
}

export async function clearSlotHold(tx: DbOrTx, reservationId: string): Promise<void> {
  await tx.update(slots).set({ holdReservationId: null, holdExpiresAt: null }).where(eq(slots.holdReservationId, reservationId));
}

export async function updateReservation(tx: Tx, id: string, values: Partial<Pick<ReservationRow, 'status' | 'expiresAt' | 'refreshesLeft'>>, now: Date) {
  const [row] = await tx.update(reservations).set({ ...values, updatedAt: now }).where(eq(reservations.id, id)).returning();
  return row!;
}

export async function slotForHold(db: DbOrTx, slotId: string) {
  const [row] = await db
    .select({ id: slots.id, locationId: slots.locationId, kind: slots.kind, salesOpenAt: locations.salesOpenAt })
    .from(slots)
    .innerJoin(locations, eq(locations.id, slots.locationId))
    .where(eq(slots.id, slotId));
  return row;
}

/**
 * Expiry sweep: marks lapsed holds expired and frees their slots, a batch at a time. SKIP LOCKED
 * lets several API processes sweep together without waiting on or repeating each other.
 */
export async function expireLapsedHolds(db: DbOrTx, now: Date, batch = 500): Promise<number> {
  const result = await db.execute(sql`
    with lapsed as (
      select id from reservations
      where status = 'active' and expires_at <= ${now.toISOString()}::timestamptz
      order by expires_at limit ${batch} for update skip locked
    ), expired as (
      update reservations r set status = 'expired', updated_at = ${now.toISOString()}::timestamptz
      from lapsed where r.id = lapsed.id returning r.id
    )
    update slots s set hold_reservation_id = null, hold_expires_at = null
    from expired where s.hold_reservation_id = expired.id`);
  return result.rowCount ?? 0;
}

/** Bookings that still count towards the per-account limit: paid or being paid, session ahead. */
export async function countUpcomingBookings(db: DbOrTx, userId: string, now: Date): Promise<number> {
  const result = await db.execute(sql`
    select count(*)::int as n from bookings b join slots s on s.id = b.slot_id
    where b.user_id = ${userId}::uuid and b.status in ('payment_pending', 'completed') and s.start_at > ${now.toISOString()}::timestamptz`);
  return result.rows[0]!.n as number;
}
