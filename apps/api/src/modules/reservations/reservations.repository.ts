import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { slots } from '../../db/schema/catalogue';
import { reservations } from '../../db/schema/reservations';

export type ReservationRow = typeof reservations.$inferSelect;

export async function findReservation(db: DbOrTx, id: string, userId: string): Promise<ReservationRow | undefined> {
  const [row] = await db.select().from(reservations).where(and(eq(reservations.id, id), eq(reservations.userId, userId)));
  return row;
}

export async function lockReservation(tx: Tx, id: string, userId: string): Promise<ReservationRow | undefined> {
  const [row] = await tx.select().from(reservations).where(and(eq(reservations.id, id), eq(reservations.userId, userId))).for('update');
  return row;
}

/** Ends the customer's active holds (a new hold replaces the old) and frees their sessions. */
export async function releaseActiveHolds(tx: Tx, userId: string, now: Date): Promise<void> {
  const released = await tx
    .update(reservations)
    .set({ status: sql`case when ${reservations.expiresAt} <= ${now.toISOString()}::timestamptz then 'expired' else 'cancelled' end`, updatedAt: now })
    .where(and(eq(reservations.userId, userId), eq(reservations.status, 'active')))
    .returning({ id: reservations.id });
  for (const r of released) await clearSlotHold(tx, r.id);
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
      and (hold_expires_at is null or hold_expires_at <= ${args.now.toISOString()}::timestamptz)`);
  return result.rowCount === 1;
}

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
  const [row] = await db.select({ id: slots.id, locationId: slots.locationId, kind: slots.kind }).from(slots).where(eq(slots.id, slotId));
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
