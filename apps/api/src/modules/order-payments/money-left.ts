import { refundableCents, type PolicyBooking, type PolicyRules } from '@kringle/contracts/policy';
import { sql, type SQL, type SQLWrapper } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/**
 * The money on an order, worked out in one function (issue 49, decision 0091; the rule is issue
 * 53's, decision 0082): what was paid, less what was refunded, less refunds decided but not yet at
 * the card (pending, or given up and owed); nothing on an unpaid order. Every amount a family is
 * offered or told as a refund (a closure's offer and its e-mails, cancel's offer, the cancellation
 * e-mails, My Bookings), every amount the team may refund, an order's "refund pending" and a
 * booking's refunded total start here. The queries below read an order's figures with one SQL
 * expression (`moneyFacts`) and hand them to `moneyOf`.
 */
export interface MoneyFacts {
  amountCents: number;
  paid: boolean;
  /** The order's refunded total: its succeeded refunds, or what Stripe reports if more. */
  refundedCents: number;
  /** Refunds decided but not at the card: pending, or given up (still owed). */
  unsettledCents: number;
}

export interface Money {
  refundedCents: number;
  unsettledCents: number;
  /** What may still be refunded. */
  leftCents: number;
  /** Refunded or on its way back: what a new refund's entry counts as gone before it. */
  goneCents: number;
}

export function moneyOf(f: MoneyFacts): Money {
  return {
    refundedCents: f.refundedCents,
    unsettledCents: f.unsettledCents,
    leftCents: f.paid ? Math.max(0, f.amountCents - f.refundedCents - f.unsettledCents) : 0,
    goneCents: f.refundedCents + f.unsettledCents,
  };
}

const NONE: Money = moneyOf({ amountCents: 0, paid: false, refundedCents: 0, unsettledCents: 0 });

/** The refunds of the order `o` (an alias in the caller's query) not yet at the card. */
const unsettledOf = (o: SQL) =>
  sql`coalesce((select sum(r.amount_cents) from refunds r
    where r.order_id = ${o}.id and r.status <> 'succeeded'), 0)::int`;

/** The figures `moneyOf` needs, as one JSON array: [amount, paid, refunded, unsettled]. */
const moneyFacts = (o: SQL) =>
  sql`json_build_array(${o}.amount_cents, ${o}.paid_at is not null, ${o}.refunded_cents, ${unsettledOf(o)})`;

type FactsRow = [number, boolean, number, number] | null;

/** The money of a row read with `moneyFacts` (null: no order). */
export const moneyOfRow = (row: unknown): Money => {
  const f = row as FactsRow;
  return f ? moneyOf({ amountCents: f[0], paid: f[1], refundedCents: f[2], unsettledCents: f[3] }) : NONE;
};

/**
 * The money of a booking's own order: its latest order of kind 'booking', the one its refunds go
 * to (photos bought later are orders of their own, decision 0065). `bookingId` is a column or
 * value; read the result with `moneyOfRow`.
 */
export const moneyOfBooking = (bookingId: SQLWrapper) =>
  sql<unknown>`(select ${moneyFacts(sql.raw('lo'))} from orders lo
    where lo.booking_id = ${bookingId} and lo.kind = 'booking' order by lo.created_at desc limit 1)`;

/** One order's money (locked by a caller that will refund from it). */
export async function moneyOnOrder(db: DbOrTx, orderId: string): Promise<Money> {
  const { rows } = await db.execute(
    sql`select ${moneyFacts(sql.raw('o'))} as money from orders o where o.id = ${orderId}::uuid`,
  );
  return moneyOfRow(rows[0]?.money ?? null);
}

/** The money of each of these orders (the family's order list). */
export async function moneyOnOrders(db: DbOrTx, orderIds: string[]): Promise<Map<string, Money>> {
  if (orderIds.length === 0) return new Map();
  const { rows } = await db.execute(sql`
    select o.id, ${moneyFacts(sql.raw('o'))} as money from orders o
    where o.id in (${sql.join(
      orderIds.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`);
  return new Map(rows.map((r) => [r.id as string, moneyOfRow(r.money)]));
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
