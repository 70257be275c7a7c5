import { and, eq, isNull } from 'drizzle-orm';
import type { OrderRow } from '../order-payments/order-rows.repository';
import type { DbOrTx, Tx } from '../../db/client';
import { bookings, orders } from '../../db/schema/bookings';
import { slots } from '../../db/schema/catalogue';
import { findBookingRead } from './booking-view.repository';
import { checkInCodeFor } from '../check-in/check-in-codes';

/**
 * A booking and its order as rows: read and locked here by every module that moves a booking
 * through its life. The booking is written only by payment-transitions.ts and
 * booking-change-transitions.ts (and the details and reminder bookkeeping beside this file), the
 * order's payment only by order-payments/payment-moves.ts.
 */
export type BookingRow = typeof bookings.$inferSelect;
export type NewBooking = typeof bookings.$inferInsert;

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

/**
 * Only for payment-transitions.ts and booking-change-transitions.ts. `only` adds conditions the row
 * must still meet; false when it did not.
 */
export async function setBooking(
  tx: Tx,
  id: string,
  values: Partial<NewBooking>,
  only?: { status: BookingRow['status']; checkedInAt: null },
): Promise<boolean> {
  const where = only
    ? and(eq(bookings.id, id), eq(bookings.status, only.status), isNull(bookings.checkedInAt))
    : eq(bookings.id, id);
  const result = await tx.update(bookings).set(values).where(where);
  return (result.rowCount ?? 0) === 1;
}

export async function insertBookingRow(tx: Tx, values: NewBooking): Promise<BookingRow> {
  const [row] = await tx.insert(bookings).values(values).returning();
  return row!;
}

export async function slotStart(tx: DbOrTx, slotId: string): Promise<Date> {
  const [row] = await tx.select({ startAt: slots.startAt }).from(slots).where(eq(slots.id, slotId));
  return row!.startAt;
}

/** Everything a booking e-mail needs: the booking read (booking-view.repository.ts) with its check-in code. */
export async function bookingDetails(db: DbOrTx, bookingId: string) {
  const r = (await findBookingRead(db, bookingId))!;
  return {
    booking: r.booking,
    email: r.user.email,
    firstName: r.user.firstName,
    locationName: r.location.name,
    address: r.location.address,
    suburb: r.location.suburb,
    state: r.location.state,
    timezone: r.location.timezone,
    slotTypeName: r.slotType.name,
    startAt: r.slot.startAt,
    endAt: r.slot.endAt,
    checkInCode: await checkInCodeFor(db, r.booking),
  };
}
export type BookingDetails = Awaited<ReturnType<typeof bookingDetails>>;
