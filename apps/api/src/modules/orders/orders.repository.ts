import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { orders, refunds } from '../../db/schema/bookings';
import { findBookingRead } from '../booking-lifecycle/booking-view.repository';
import type { OrderRow } from '../order-payments/order-rows.repository';

/** The booking (only the caller's) with what a receipt prints. */
export async function bookingForReceipts(db: DbOrTx, bookingId: string, userId: string) {
  const r = await findBookingRead(db, bookingId, userId);
  if (!r) return undefined;
  return {
    id: r.booking.id,
    reference: r.booking.reference,
    firstName: r.user.firstName,
    lastName: r.user.lastName,
    email: r.user.email,
    sessionName: r.slotType.name,
    sessionStart: r.slot.startAt,
    locationName: r.location.name,
    locationAddress: r.location.address,
    suburb: r.location.suburb,
    state: r.location.state,
    timezone: r.location.timezone,
  };
}

export async function ordersOfBooking(db: DbOrTx, bookingId: string): Promise<OrderRow[]> {
  return db.select().from(orders).where(eq(orders.bookingId, bookingId)).orderBy(asc(orders.createdAt));
}

export async function succeededRefunds(db: DbOrTx, orderId: string) {
  return db
    .select({ at: refunds.completedAt, amountCents: refunds.amountCents, method: refunds.method })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.status, 'succeeded')))
    .orderBy(asc(refunds.completedAt));
}
