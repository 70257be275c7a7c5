import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { orders, refunds } from '../../db/schema/bookings';
import { REFUND_MOVES, type RefundMoveName } from './payment-table';

export type RefundRow = typeof refunds.$inferSelect;

/**
 * The refunds' rows. Their state is written only through payment-moves.ts (decision 0091); each
 * write's condition is the table's from-states, so a refund settled or given up meanwhile (a
 * second process, a redelivered webhook) is left as it is.
 */
const startsFrom = (move: RefundMoveName) =>
  inArray(refunds.status, REFUND_MOVES[move].from.filter((s) => s !== 'new') as RefundRow['status'][]);

export async function insertRefund(
  tx: Tx,
  values: { orderId: string; bookingId: string; amountCents: number; reason: string; method?: RefundRow['method'] },
): Promise<RefundRow> {
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

export interface OrderRefundState {
  refundedCents: number;
  status: string;
}

/** An order's refund state as an audit entry's before or after shows it. */
export const orderFacts = (o: OrderRefundState | undefined) =>
  o ? { refundedCents: o.refundedCents, orderStatus: o.status } : {};

/**
 * The order's refunded total is the sum of its succeeded refunds, or what Stripe reports if that
 * is more (a refund made in the dashboard): both writers converge on the same figure. Returns the
 * order's booking and its refunded total and status before and after (for the audit entry), or
 * null for an unknown order.
 */
export async function syncOrderRefunded(
  tx: Tx,
  orderId: string,
  now: Date,
  reportedByStripe = 0,
): Promise<{ bookingId: string; before: OrderRefundState; after: OrderRefundState } | null> {
  const result = await tx.execute(sql`
    with old as (
      select o.id, o.booking_id, o.refunded_cents, o.status,
        greatest(o.refunded_cents, ${reportedByStripe}::int,
          coalesce((select sum(r.amount_cents) from refunds r where r.order_id = o.id and r.status = 'succeeded'),
          0)::int) as cents
      from orders o where o.id = ${orderId}::uuid for update
    ), synced as (
      update orders o set refunded_cents = old.cents, refunded_at = coalesce(o.refunded_at,
      ${now.toISOString()}::timestamptz),
        status = case when old.cents >= o.amount_cents and old.cents > 0 then 'refunded' else o.status end
      from old where o.id = old.id
      returning o.status
    )
    select old.booking_id, old.refunded_cents, old.status as old_status, old.cents, synced.status from old, synced`);
  const row = result.rows[0];
  if (!row) return null;
  return {
    bookingId: row.booking_id as string,
    before: { refundedCents: row.refunded_cents as number, status: row.old_status as string },
    after: { refundedCents: row.cents as number, status: row.status as string },
  };
}

/** True when the refund was pending and is now succeeded. */
export async function markRefundSucceeded(
  tx: Tx,
  id: string,
  stripeRefundId: string | null,
  now: Date,
): Promise<boolean> {
  const result = await tx
    .update(refunds)
    .set({ status: 'succeeded', stripeRefundId, completedAt: now })
    .where(and(eq(refunds.id, id), startsFrom('settle')));
  return (result.rowCount ?? 0) === 1;
}

/** A refund settled as account credit becomes a card refund, pending for the sender job (decision 0111). */
export async function reopenCreditRefundToCard(tx: Tx, id: string): Promise<boolean> {
  const result = await tx
    .update(refunds)
    .set({ status: 'pending', method: 'card', completedAt: null })
    .where(and(eq(refunds.id, id), eq(refunds.method, 'credit'), startsFrom('backToCard')));
  return (result.rowCount ?? 0) === 1;
}

/** Counts a failed attempt; giving up marks a still-pending refund failed (true when it did). */
export async function recordRefundAttempt(db: DbOrTx, id: string, error: string, giveUp: boolean): Promise<boolean> {
  const result = await db
    .update(refunds)
    .set({
      attempts: sql`${refunds.attempts} + 1`,
      lastError: error.slice(0, 500),
      ...(giveUp ? { status: 'failed' as const } : {}),
    })
    .where(and(eq(refunds.id, id), giveUp ? startsFrom('giveUp') : undefined))
    .returning({ id: refunds.id });
  return giveUp && result.length === 1;
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
  return db
    .select()
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.status, 'pending')));
}

/** Shrinks a refund settled as credit by the cents that go to the card instead (its other part). */
export async function shrinkCreditRefund(tx: Tx, id: string, cents: number): Promise<boolean> {
  const result = await tx
    .update(refunds)
    .set({ amountCents: sql`${refunds.amountCents} - ${cents}` })
    .where(and(eq(refunds.id, id), eq(refunds.method, 'credit'), sql`${refunds.amountCents} > ${cents}`));
  return (result.rowCount ?? 0) === 1;
}

/** The cents of an order's refunds that gave its spent credit back. */
export async function creditReturnedOf(db: DbOrTx, orderId: string): Promise<number> {
  const [row] = await db
    .select({ cents: sql<number>`coalesce(sum(${refunds.amountCents}), 0)::int` })
    .from(refunds)
    .where(and(eq(refunds.orderId, orderId), eq(refunds.method, 'credit'), eq(refunds.reason, CREDIT_RETURNED)));
  return row?.cents ?? 0;
}

/** A refund's reason when it gives back the credit an order spent. */
export const CREDIT_RETURNED = 'credit_returned';

/**
 * The cents of an order's refunds of what its gift vouchers paid (decision 0112): back on the
 * vouchers, and as credit for vouchers expired or cancelled since (decision 0115).
 */
export async function voucherRefundedOf(
  db: DbOrTx,
  orderId: string,
): Promise<{ onVouchers: number; asCredit: number }> {
  const [row] = await db
    .select({
      onVouchers: sql<number>`coalesce(sum(${refunds.amountCents})
        filter (where ${refunds.method} = 'voucher'), 0)::int`,
      asCredit: sql<number>`coalesce(sum(${refunds.amountCents}) filter (where ${refunds.method} = 'credit'
        and ${refunds.reason} = ${VOUCHER_RETURNED}), 0)::int`,
    })
    .from(refunds)
    .where(eq(refunds.orderId, orderId));
  return row ?? { onVouchers: 0, asCredit: 0 };
}

/** A refund's reason when it gives gift vouchers back what they paid. */
export const VOUCHER_RETURNED = 'voucher_returned';
