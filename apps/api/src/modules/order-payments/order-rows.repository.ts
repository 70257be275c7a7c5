import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { orders } from '../../db/schema/bookings';

/**
 * The writes of an order's row: only payment-moves.ts changes its payment state (decision 0091);
 * the intent's id and secret are attached here once, as bookkeeping.
 */
export type OrderRow = typeof orders.$inferSelect;
export type NewOrder = typeof orders.$inferInsert;
type Status = OrderRow['status'];

export async function insertOrderRow(tx: Tx, values: NewOrder): Promise<OrderRow> {
  const [row] = await tx.insert(orders).values(values).returning();
  return row!;
}

/** Only for payment-moves.ts: writes the order if its status is still one of `from`; false when it is not. */
export async function setOrderIf(
  tx: Tx,
  id: string,
  from: readonly Status[],
  values: Partial<NewOrder>,
): Promise<boolean> {
  const result = await tx
    .update(orders)
    .set(values)
    .where(and(eq(orders.id, id), inArray(orders.status, [...from])));
  return (result.rowCount ?? 0) === 1;
}

/** Stores the PaymentIntent once; a concurrent duplicate call keeps the first (same idempotency key, same intent). */
export async function attachPaymentIntent(
  db: DbOrTx,
  orderId: string,
  paymentIntentId: string,
  clientSecret: string,
): Promise<void> {
  await db
    .update(orders)
    .set({ paymentIntentId, clientSecret })
    .where(and(eq(orders.id, orderId), sql`${orders.paymentIntentId} is null`));
}
