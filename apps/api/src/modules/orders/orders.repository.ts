import { and, asc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { bookings, orders, refunds } from '../../db/schema/bookings';
import { locations, slotTypes, slots } from '../../db/schema/catalogue';

export type OrderRow = typeof orders.$inferSelect;

/** The booking (only the caller's) with what a receipt prints. */
export async function bookingForReceipts(db: DbOrTx, bookingId: string, userId: string) {
  const [row] = await db
    .select({
      id: bookings.id,
      reference: bookings.reference,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      sessionName: slotTypes.name,
      sessionStart: slots.startAt,
      locationName: locations.name,
      locationAddress: locations.address,
      suburb: locations.suburb,
      state: locations.state,
      timezone: locations.timezone,
    })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .innerJoin(slots, eq(slots.id, bookings.slotId))
    .innerJoin(slotTypes, eq(slotTypes.id, bookings.slotTypeId))
    .innerJoin(locations, eq(locations.id, bookings.locationId))
    .where(and(eq(bookings.id, bookingId), eq(bookings.userId, userId)));
  return row;
}

export async function ordersOfBooking(db: DbOrTx, bookingId: string): Promise<OrderRow[]> {
  return db.select().from(orders).where(eq(orders.bookingId, bookingId)).orderBy(asc(orders.createdAt));
}

/** Per order, the refunds decided but not yet at the card (pending at Stripe, or given up and owed). */
export async function unsettledRefundCents(db: DbOrTx, orderIds: string[]): Promise<Map<string, number>> {
  if (orderIds.length === 0) return new Map();
  const rows = await db
    .select({ orderId: refunds.orderId, cents: sql<number>`sum(${refunds.amountCents})::int` })
    .from(refunds)
    .where(and(inArray(refunds.orderId, orderIds), ne(refunds.status, 'succeeded')))
    .groupBy(refunds.orderId);
  return new Map(rows.map((r) => [r.orderId, r.cents]));
}

export async function succeededRefunds(db: DbOrTx, orderId: string) {
  return db
    .select({ at: refunds.completedAt, amountCents: refunds.amountCents })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.status, 'succeeded')))
    .orderBy(asc(refunds.completedAt));
}
