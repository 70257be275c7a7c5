import { refundableCents, type PolicyBooking, type PolicyRules } from '@kringle/contracts/policy';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/**
 * "Money left on an order", the one definition (issue 53): what was paid, less what was refunded,
 * less refunds decided but not yet at the card (pending, or given up and owed); nothing on an
 * unpaid order. Every amount a family is offered or told as a refund (a closure's offer and its
 * e-mails, cancel's offer, the cancellation e-mails, My Bookings) and every amount the team may
 * refund start here. It was worked out three ways (paid less refunded over every order, the
 * booking's amount less refunded, and this), and a closure after a partial refund promised
 * the whole price while refunding what was left.
 *
 * `o` is the alias of an `orders` row in the caller's query.
 */
export const leftOnOrder = (o: SQL) =>
  sql<number>`(case when ${o}.paid_at is null then 0 else greatest(0, ${o}.amount_cents - ${o}.refunded_cents
    - coalesce((select sum(r.amount_cents) from refunds r where r.order_id = ${o}.id and r.status <> 'succeeded'), 0)) end)::int`;

/**
 * Left on a booking's own order: its latest order of kind 'booking', the one its refunds go to
 * (photos bought later are orders of their own, decision 0065). `bookingId` is a column or value.
 */
export const leftOnBooking = (bookingId: SQLWrapper) =>
  sql<number>`coalesce((select ${leftOnOrder(sql.raw('lo'))} from orders lo where lo.booking_id = ${bookingId} and lo.kind = 'booking'
    order by lo.created_at desc limit 1), 0)::int`;

/** Left on one order (locked by a caller that will refund from it), and what counts as refunded already. */
export async function moneyLeftOnOrder(db: DbOrTx, orderId: string): Promise<{ left: number; refunded: number }> {
  const { rows } = await db.execute(sql`
    select ${leftOnOrder(sql.raw('o'))} as left, o.amount_cents, o.refunded_cents,
      coalesce((select sum(r.amount_cents) from refunds r where r.order_id = o.id and r.status <> 'succeeded'), 0)::int as unsettled
    from orders o where o.id = ${orderId}::uuid`);
  const r = rows[0];
  if (!r) return { left: 0, refunded: 0 };
  return { left: Number(r.left), refunded: Number(r.refunded_cents) + Number(r.unsettled) };
}

/** Left on a booking's own order (0 when it has none, or it is unpaid). */
export async function moneyLeftOnBooking(db: DbOrTx, bookingId: string): Promise<number> {
  const { rows } = await db.execute(sql`select ${leftOnBooking(sql`${bookingId}::uuid`)} as left`);
  return Number(rows[0]?.left ?? 0);
}

/**
 * What cancelling now gives back by the policy: all that is left on the order until the cut-off,
 * nothing after (the rule itself is the shared policy's, which the web app shows too).
 */
export function refundByPolicy(
  b: Pick<PolicyBooking, 'status' | 'startAt' | 'rescheduleCount'>,
  leftCents: number,
  now: Date,
  rules: PolicyRules,
): number {
  return refundableCents({ ...b, amountCents: leftCents, refundedCents: 0 }, now, rules);
}
