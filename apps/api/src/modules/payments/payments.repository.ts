import { sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { stripeEvents } from '../../db/schema/bookings';

/** False when the event id was seen before: Stripe may deliver an event more than once. */
export async function recordEvent(tx: Tx, id: string, type: string): Promise<boolean> {
  const result = await tx.insert(stripeEvents).values({ id, type }).onConflictDoNothing();
  return (result.rowCount ?? 0) === 1;
}

/**
 * An order and its booking by PaymentIntent id (or by order id), read without a lock: the webhook locks the booking
 * first.
 */
export async function orderOfIntent(
  tx: Tx,
  intentId: string | null,
  orderId?: string,
): Promise<{ id: string; bookingId: string } | undefined> {
  const { rows } = await tx.execute(sql`
    select id, booking_id from orders
    where ${intentId ? sql`payment_intent_id = ${intentId}` : sql`id = ${orderId ?? null}::uuid`}`);
  return rows[0] ? { id: rows[0].id as string, bookingId: rows[0].booking_id as string } : undefined;
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
