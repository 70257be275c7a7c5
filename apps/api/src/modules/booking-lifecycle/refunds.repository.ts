import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { orders, refunds } from '../../db/schema/bookings';

export type RefundRow = typeof refunds.$inferSelect;

export async function insertRefund(tx: Tx, values: { orderId: string; bookingId: string; amountCents: number; reason: string }): Promise<RefundRow> {
  const [row] = await tx.insert(refunds).values(values).returning();
  return row!;
}

export async function findRefund(db: DbOrTx, id: string): Promise<RefundRow | undefined> {
  const [row] = await db.select().from(refunds).where(eq(refunds.id, id));
  return row;
}

export async function lockRefund(tx: Tx, id: string): Promise<RefundRow | undefined> {
  const [row] = await tx.select().from(refunds).where(eq(refunds.id, id)).for('update');
  return row;
}

export async function refundsOfBooking(db: DbOrTx, bookingId: string): Promise<RefundRow[]> {
  return db.select().from(refunds).where(eq(refunds.bookingId, bookingId)).orderBy(refunds.createdAt);
}

/**
 * The order's refunded total is the sum of its succeeded refunds, or what Stripe reports if that
 * is more (a refund made in the dashboard): both writers converge on the same figure.
 */
export async function syncOrderRefunded(tx: Tx, orderId: string, now: Date, reportedByStripe = 0): Promise<void> {
  await tx.execute(sql`
    update orders o set
      refunded_cents = greatest(o.refunded_cents, ${reportedByStripe}::int,
        coalesce((select sum(r.amount_cents) from refunds r where r.order_id = o.id and r.status = 'succeeded'), 0)::int),
      refunded_at = coalesce(o.refunded_at, ${now.toISOString()}::timestamptz)
    where o.id = ${orderId}::uuid`);
  await tx.execute(sql`
    update orders set status = 'refunded' where id = ${orderId}::uuid and refunded_cents >= amount_cents and refunded_cents > 0`);
}

export async function markRefundSucceeded(tx: Tx, id: string, stripeRefundId: string, now: Date): Promise<void> {
  await tx.update(refunds).set({ status: 'succeeded', stripeRefundId, completedAt: now }).where(and(eq(refunds.id, id), eq(refunds.status, 'pending')));
}

export async function recordRefundAttempt(db: DbOrTx, id: string, error: string, giveUp: boolean): Promise<void> {
  await db
    .update(refunds)
    .set({ attempts: sql`${refunds.attempts} + 1`, lastError: error.slice(0, 500), ...(giveUp ? { status: 'failed' as const } : {}) })
    .where(eq(refunds.id, id));
}

/** Pending refunds not touched for a while: the request that created them has had its chance. */
export async function duePendingRefunds(db: DbOrTx, olderThan: Date, limit: number): Promise<string[]> {
  const rows = await db
    .select({ id: refunds.id })
    .from(refunds)
    .where(and(eq(refunds.status, 'pending'), sql`${refunds.createdAt} < ${olderThan.toISOString()}::timestamptz`))
    .limit(limit);
  return rows.map((r) => r.id);
}

export async function paymentIntentOfOrder(db: DbOrTx, orderId: string): Promise<string | null> {
  const [row] = await db.select({ pi: orders.paymentIntentId }).from(orders).where(eq(orders.id, orderId));
  return row?.pi ?? null;
}

export async function pendingRefundsOfOrder(db: DbOrTx, orderId: string): Promise<RefundRow[]> {
  return db.select().from(refunds).where(and(eq(refunds.orderId, orderId), eq(refunds.status, 'pending')));
}
