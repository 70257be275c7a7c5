import { eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { bookings, orders, stripeEvents } from '../../db/schema/bookings';
import { locations, slotTypes, slots } from '../../db/schema/catalogue';
import { checkInCodeFor } from '../check-in/check-in-codes';
import type { BookingRow, OrderRow } from '../checkout/checkout.repository';

/** False when the event id was seen before: Stripe may deliver an event more than once. */
export async function recordEvent(tx: Tx, id: string, type: string): Promise<boolean> {
  const result = await tx.insert(stripeEvents).values({ id, type }).onConflictDoNothing();
  return (result.rowCount ?? 0) === 1;
}

export async function lockOrderByIntent(tx: Tx, paymentIntentId: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.paymentIntentId, paymentIntentId)).for('update');
  return row;
}

export async function lockOrder(tx: Tx, orderId: string): Promise<OrderRow | undefined> {
  const [row] = await tx.select().from(orders).where(eq(orders.id, orderId)).for('update');
  return row;
}

export async function lockBooking(tx: Tx, id: string): Promise<BookingRow> {
  const [row] = await tx.select().from(bookings).where(eq(bookings.id, id)).for('update');
  return row!;
}

/**
 * Gives the session to a paid booking: only if no confirmed booking has it and no other live hold
 * does (its own hold, or a lapsed one, is fine). One conditional UPDATE, like the hold itself.
 */
export async function takeSlotForBooking(tx: Tx, booking: BookingRow, now: Date): Promise<boolean> {
  const result = await tx.execute(sql`
    update slots set booking_id = ${booking.id}::uuid, hold_reservation_id = null, hold_expires_at = null
    where id = ${booking.slotId}::uuid and booking_id is null
      and (hold_reservation_id is null or hold_reservation_id = ${booking.reservationId}::uuid
           or hold_expires_at <= ${now.toISOString()}::timestamptz)`);
  return result.rowCount === 1;
}

export async function releaseSlotHoldOf(tx: Tx, booking: BookingRow): Promise<void> {
  if (!booking.reservationId) return;
  await tx
    .update(slots)
    .set({ holdReservationId: null, holdExpiresAt: null })
    .where(sql`${slots.id} = ${booking.slotId}::uuid and ${slots.holdReservationId} = ${booking.reservationId}::uuid`);
}

export async function setBooking(tx: Tx, id: string, values: Partial<typeof bookings.$inferInsert>): Promise<void> {
  await tx.update(bookings).set(values).where(eq(bookings.id, id));
}

export async function setOrder(tx: Tx, id: string, values: Partial<typeof orders.$inferInsert>): Promise<void> {
  await tx.update(orders).set(values).where(eq(orders.id, id));
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

const LAPSED_CHECKOUT = sql`
  r.status = 'checked_out' and b.status in ('payment_pending', 'payment_failed') and o.status in ('pending', 'failed')`;

type LapsedRow = { booking_id: unknown; order_id: unknown; payment_intent_id: unknown; reservation_id: unknown };
const toLapsed = (r: LapsedRow) => ({
  bookingId: r.booking_id as string,
  orderId: r.order_id as string,
  paymentIntentId: (r.payment_intent_id as string | null) ?? null,
  reservationId: r.reservation_id as string,
});
export type LapsedCheckout = ReturnType<typeof toLapsed>;

/** Unpaid checkouts whose hold has lapsed (read only: each is then claimed on its own). */
export async function lapsedCheckouts(db: DbOrTx, now: Date, limit: number): Promise<LapsedCheckout[]> {
  const result = await db.execute<LapsedRow>(sql`
    select b.id as booking_id, o.id as order_id, o.payment_intent_id, r.id as reservation_id
    from reservations r join bookings b on b.reservation_id = r.id join orders o on o.booking_id = b.id
    where ${LAPSED_CHECKOUT} and r.expires_at <= ${now.toISOString()}::timestamptz
    order by r.expires_at
    limit ${limit}`);
  return result.rows.map(toLapsed);
}

/** Claims one lapsed checkout if it is still lapsed and unpaid, so several processes never cancel it twice. */
export async function claimLapsedCheckout(tx: Tx, bookingId: string, now: Date): Promise<LapsedCheckout | undefined> {
  const result = await tx.execute<LapsedRow>(sql`
    select b.id as booking_id, o.id as order_id, o.payment_intent_id, r.id as reservation_id
    from reservations r join bookings b on b.reservation_id = r.id join orders o on o.booking_id = b.id
    where b.id = ${bookingId}::uuid and ${LAPSED_CHECKOUT} and r.expires_at <= ${now.toISOString()}::timestamptz
    for update of b skip locked`);
  return result.rows.map(toLapsed)[0];
}
