import { and, desc, eq } from 'drizzle-orm';
import type { Tx } from '../../db/client';
import { bookings, orders } from '../../db/schema/bookings';
import { slots } from '../../db/schema/catalogue';

export async function lockOwnBooking(tx: Tx, id: string, userId: string) {
  const [row] = await tx
    .select()
    .from(bookings)
    .where(and(eq(bookings.id, id), eq(bookings.userId, userId)))
    .for('update');
  return row;
}

/** The booking's own order (photos bought later are orders of their own, decision 0065). */
export async function latestOrder(tx: Tx, bookingId: string) {
  const [row] = await tx
    .select()
    .from(orders)
    .where(and(eq(orders.bookingId, bookingId), eq(orders.kind, 'booking')))
    .orderBy(desc(orders.createdAt))
    .limit(1)
    .for('update');
  return row;
}

export async function slotWithType(tx: Tx, slotId: string) {
  const [row] = await tx
    .select({ id: slots.id, locationId: slots.locationId, slotTypeId: slots.slotTypeId, startAt: slots.startAt })
    .from(slots)
    .where(eq(slots.id, slotId));
  return row!;
}

/**
 * Whether a closure has taken the session (issue 48). Read under the booking's lock: a closure
 * locks its bookings before it blocks their sessions, so it has either committed (closed) or not
 * started on this booking yet (it then waits for the move and skips the booking that moved).
 */
export async function sessionClosed(tx: Tx, slotId: string): Promise<boolean> {
  const [row] = await tx.select({ blocked: slots.blocked }).from(slots).where(eq(slots.id, slotId));
  return row?.blocked === true;
}
