import { and, desc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { bookings, orders } from '../../db/schema/bookings';
import { slots } from '../../db/schema/catalogue';
import { reservations } from '../../db/schema/reservations';

export async function lockOwnBooking(tx: Tx, id: string, userId: string) {
  const [row] = await tx.select().from(bookings).where(and(eq(bookings.id, id), eq(bookings.userId, userId))).for('update');
  return row;
}

export async function latestOrder(tx: Tx, bookingId: string) {
  const [row] = await tx.select().from(orders).where(eq(orders.bookingId, bookingId)).orderBy(desc(orders.createdAt)).limit(1).for('update');
  return row;
}

/** Frees a confirmed booking's session (and any hold of its checkout) at once. */
export async function freeBookingSlot(tx: Tx, booking: { id: string; slotId: string; reservationId: string | null }): Promise<void> {
  await tx.execute(sql`
    update slots set booking_id = null,
      hold_reservation_id = case when hold_reservation_id = ${booking.reservationId}::uuid then null else hold_reservation_id end,
      hold_expires_at = case when hold_reservation_id = ${booking.reservationId}::uuid then null else hold_expires_at end
    where id = ${booking.slotId}::uuid and (booking_id = ${booking.id}::uuid or hold_reservation_id = ${booking.reservationId}::uuid)`);
}

/** Moves a booking onto the session its reschedule hold owns; false if that hold no longer owns it. */
export async function takeHeldSlot(tx: Tx, args: { bookingId: string; slotId: string; reservationId: string; now: Date }): Promise<boolean> {
  const result = await tx.execute(sql`
    update slots set booking_id = ${args.bookingId}::uuid, hold_reservation_id = null, hold_expires_at = null
    where id = ${args.slotId}::uuid and booking_id is null and hold_reservation_id = ${args.reservationId}::uuid
      and hold_expires_at > ${args.now.toISOString()}::timestamptz`);
  return result.rowCount === 1;
}

export async function lockReservationOf(tx: Tx, id: string, userId: string) {
  const [row] = await tx.select().from(reservations).where(and(eq(reservations.id, id), eq(reservations.userId, userId))).for('update');
  return row;
}

export async function slotWithType(tx: Tx, slotId: string) {
  const [row] = await tx.select({ id: slots.id, locationId: slots.locationId, slotTypeId: slots.slotTypeId, startAt: slots.startAt }).from(slots).where(eq(slots.id, slotId));
  return row!;
}
