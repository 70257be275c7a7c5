import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { bookings, orders, type LineItem } from '../../db/schema/bookings';
import { slots } from '../../db/schema/catalogue';
import { reservations } from '../../db/schema/reservations';
import type { BookingRow, OrderRow } from '../booking-lifecycle/booking-rows.repository';

export async function findOrderByCart(db: DbOrTx, cartId: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.cartId, cartId));
  return row;
}

export async function slotOf(db: DbOrTx, slotId: string) {
  const [row] = await db.select({ id: slots.id, locationId: slots.locationId, slotTypeId: slots.slotTypeId }).from(slots).where(eq(slots.id, slotId));
  return row!;
}

export async function insertBooking(
  tx: Tx,
  values: { reference: string; userId: string; locationId: string; slotId: string; slotTypeId: string; reservationId: string; items: LineItem[]; amountCents: number; now: Date },
): Promise<BookingRow> {
  const { now, ...rest } = values;
  const [row] = await tx
    .insert(bookings)
    .values({ ...rest, status: 'payment_pending', source: 'online', createdAt: now, updatedAt: now })
    .returning();
  return row!;
}

export async function insertOrder(
  tx: Tx,
  values: { bookingId: string; userId: string; cartId: string; items: LineItem[]; amountCents: number; now: Date; reconcileAt: Date },
): Promise<OrderRow> {
  const { now, ...rest } = values;
  const [row] = await tx.insert(orders).values({ ...rest, createdAt: now }).returning();
  return row!;
}

export async function markCheckedOut(tx: Tx, reservationId: string, bookingId: string, now: Date): Promise<void> {
  await tx.update(reservations).set({ status: 'checked_out', bookingId, updatedAt: now }).where(eq(reservations.id, reservationId));
}

/** Stores the PaymentIntent once; a concurrent duplicate call keeps the first (same idempotency key, same intent). */
export async function attachPaymentIntent(db: DbOrTx, orderId: string, paymentIntentId: string, clientSecret: string): Promise<void> {
  await db
    .update(orders)
    .set({ paymentIntentId, clientSecret })
    .where(and(eq(orders.id, orderId), sql`${orders.paymentIntentId} is null`));
}

/** The customer's booking with its newest order and its hold; undefined for someone else's booking. */
export async function findBookingCheckout(db: DbOrTx, bookingId: string, userId: string) {
  const [booking] = await db.select().from(bookings).where(and(eq(bookings.id, bookingId), eq(bookings.userId, userId)));
  if (!booking) return undefined;
  const [order] = await db.select().from(orders).where(eq(orders.bookingId, booking.id)).orderBy(sql`${orders.createdAt} desc`).limit(1);
  if (!order) return undefined;
  const [reservation] = booking.reservationId ? await db.select().from(reservations).where(eq(reservations.id, booking.reservationId)) : [];
  return { booking, order, reservation };
}
