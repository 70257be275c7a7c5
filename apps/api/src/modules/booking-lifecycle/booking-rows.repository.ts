import { eq } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { bookings, orders } from '../../db/schema/bookings';
import { locations, slotTypes, slots } from '../../db/schema/catalogue';
import { checkInCodeFor } from '../check-in/check-in-codes';

/**
 * A booking and its order as rows: read, locked and changed here, by every module that moves a
 * booking through its life (checkout, payments, cancel, reschedule, staff, waitlist).
 */
export type BookingRow = typeof bookings.$inferSelect;
export type OrderRow = typeof orders.$inferSelect;

export async function findBooking(db: DbOrTx, id: string): Promise<BookingRow | undefined> {
  const [row] = await db.select().from(bookings).where(eq(bookings.id, id));
  return row;
}

export async function findOrder(db: DbOrTx, id: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(eq(orders.id, id));
  return row;
}

export async function lockBooking(tx: Tx, id: string): Promise<BookingRow> {
  const [row] = await tx.select().from(bookings).where(eq(bookings.id, id)).for('update');
  return row!;
}

export async function lockOrder(tx: Tx, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return row;
}

export async function lockOrderByIntent(tx: Tx, paymentIntentId: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.paymentIntentId, paymentIntentId)).for('update');
  return row;
}

export async function setBooking(tx: Tx, id: string, values: Partial<typeof bookings.$inferInsert>): Promise<void> {
  await tx.update(bookings).set(values).where(eq(bookings.id, id));
}

export async function setOrder(tx: Tx, id: string, values: Partial<typeof orders.$inferInsert>): Promise<void> {
  await tx.update(orders).set(values).where(eq(orders.id, id));
}

export async function slotStart(tx: DbOrTx, slotId: string): Promise<Date> {
  const [row] = await tx.select({ startAt: slots.startAt }).from(slots).where(eq(slots.id, slotId));
  return row!.startAt;
}

/** Everything a booking e-mail needs. */
export async function bookingDetails(db: DbOrTx, bookingId: string) {
  const [row] = await db
    .select({
      booking: bookings,
      email: users.email,
      firstName: users.firstName,
      locationName: locations.name,
      address: locations.address,
      suburb: locations.suburb,
      state: locations.state,
      timezone: locations.timezone,
      slotTypeName: slotTypes.name,
      startAt: slots.startAt,
      endAt: slots.endAt,
    })
    .from(bookings)
    .innerJoin(users, eq(users.id, bookings.userId))
    .innerJoin(locations, eq(locations.id, bookings.locationId))
    .innerJoin(slots, eq(slots.id, bookings.slotId))
    .innerJoin(slotTypes, eq(slotTypes.id, bookings.slotTypeId))
    .where(eq(bookings.id, bookingId));
  return { ...row!, checkInCode: await checkInCodeFor(db, row!.booking) };
}
export type BookingDetails = Awaited<ReturnType<typeof bookingDetails>>;

