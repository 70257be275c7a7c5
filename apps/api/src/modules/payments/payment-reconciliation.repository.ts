import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

export interface OrderToReconcile {
  orderId: string;
  bookingId: string;
  paymentIntentId: string;
  createdAt: Date;
  bookingStatus: string;
}

/**
 * Claims unpaid orders that are due for a look at their PaymentIntent. SKIP LOCKED lets several
 * processes claim at once without taking the same order; the claim commits with a lease
 * (reconcile_at pushed to `leaseUntil`), so a process that dies mid-way leaves the order to be
 * claimed again when the lease ends.
 */
export async function claimOrdersToReconcile(
  db: DbOrTx,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<OrderToReconcile[]> {
  const result = await db.execute<{
    id: string;
    booking_id: string;
    payment_intent_id: string;
    created_at: string;
    booking_status: string;
  }>(sql`
    with due as (
      select id from orders
      where reconcile_at <= ${now.toISOString()}::timestamptz and status in ('pending', 'failed') and
      payment_intent_id is not null
      order by reconcile_at
      limit ${limit}
      for update skip locked
    )
    update orders o set reconcile_at = ${leaseUntil.toISOString()}::timestamptz
    from due, bookings b
    where o.id = due.id and b.id = o.booking_id
    returning o.id, o.booking_id, o.payment_intent_id, o.created_at, b.status as booking_status`);
  return result.rows.map((r) => ({
    orderId: r.id,
    bookingId: r.booking_id,
    paymentIntentId: r.payment_intent_id,
    createdAt: new Date(r.created_at),
    bookingStatus: r.booking_status,
  }));
}

/** The next look (null: none needed any more). */
export async function setReconcileAt(db: DbOrTx, orderId: string, at: Date | null): Promise<void> {
  await db.execute(
    sql`update orders set reconcile_at = ${at?.toISOString() ?? null}::timestamptz where id = ${orderId}::uuid`,
  );
}

/** Stops looking at an order for good, recording why (a permanent Stripe error). */
export async function giveUpReconciling(db: DbOrTx, orderId: string, reason: string, at: Date): Promise<void> {
  await db.execute(sql`
    update orders set reconcile_at = null, reconcile_error = ${reason}, reconcile_failed_at =
    ${at.toISOString()}::timestamptz
    where id = ${orderId}::uuid`);
}
