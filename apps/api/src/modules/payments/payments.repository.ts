import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { stripeEvents } from '../../db/schema/bookings';
import { slots } from '../../db/schema/catalogue';
import type { BookingRow } from '../booking-lifecycle/booking-rows.repository';

/** False when the event id was seen before: Stripe may deliver an event more than once. */
export async function recordEvent(tx: Tx, id: string, type: string): Promise<boolean> {
  const result = await tx.insert(stripeEvents).values({ id, type }).onConflictDoNothing();
  return (result.rowCount ?? 0) === 1;
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
