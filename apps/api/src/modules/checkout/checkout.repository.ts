import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { bookings, orders } from '../../db/schema/bookings';
import { slots } from '../../db/schema/catalogue';
import { reservations } from '../../db/schema/reservations';
import type { OrderRow } from '../order-payments/order-rows.repository';

export async function findOrderByCart(db: DbOrTx, cartId: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.cartId, cartId));
  return row;
}

export async function slotOf(db: DbOrTx, slotId: string) {
  const [row] = await db
    .select({ id: slots.id, locationId: slots.locationId, slotTypeId: slots.slotTypeId })
    .from(slots)
    .where(eq(slots.id, slotId));
  return row!;
}

/**
 * The customer's booking with its newest own order (not a photo order) and its hold; undefined for someone else's
 * booking.
 */
export async function findBookingCheckout(db: DbOrTx, bookingId: string, userId: string) {
  const [booking] = await db
    .select()
    .from(bookings)
    .where(and(eq(bookings.id, bookingId), eq(bookings.userId, userId)));
  if (!booking) return undefined;
  const [order] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.bookingId, booking.id), eq(orders.kind, 'booking')))
    .orderBy(sql`${orders.createdAt} desc`)
    .limit(1);
  if (!order) return undefined;
  const [reservation] = booking.reservationId
    ? await db.select().from(reservations).where(eq(reservations.id, booking.reservationId))
    : [];
  return { booking, order, reservation };
}
