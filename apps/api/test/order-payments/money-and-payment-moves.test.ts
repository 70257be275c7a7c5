import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { orders } from '../../src/db/schema/bookings';
import { findOrder } from '../../src/modules/booking-lifecycle/booking-rows.repository';
import { findBookingRead, toView } from '../../src/modules/booking-lifecycle/booking-view.repository';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { bookingsOn } from '../../src/modules/closures/closure-sessions.repository';
import { moneyOnOrder, moneyOnOrders } from '../../src/modules/order-payments/money-left';
import {
  abandonPayment,
  declinePayment,
  recordFailedRefund,
  requestRefund,
  settleRefund,
  succeedPayment,
} from '../../src/modules/order-payments/payment-moves';
import { findRefund, syncOrderRefunded } from '../../src/modules/order-payments/refunds.repository';
import { bookDirect, createPerson, type Person } from '../staff/staff-fixtures';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * Decision 0091 on real rows: "money left on an order" is one function, and it gives, to the cent,
 * what the three earlier ways gave (the SQL expression of decision 0082, the booking view's
 * refunded total and the order list's refunds pending, kept below verbatim as the reference);
 * and each payment move refuses a state its table does not start from, changing nothing.
 */
const OLD_LEFT_ON_ORDER = (o: string) =>
  sql.raw(`(case when ${o}.paid_at is null then 0 else greatest(0, ${o}.amount_cents - ${o}.refunded_cents
    - coalesce((select sum(r.amount_cents) from refunds r where r.order_id = ${o}.id and r.status <> 'succeeded'), 0))
    end)::int`);
const OLD_UNSETTLED = sql.raw(
  `coalesce((select sum(r.amount_cents) from refunds r where r.order_id = o.id and r.status <> 'succeeded'), 0)::int`,
);

describe('money left and the payment moves', () => {
  let t: TestApp;
  let family: Person;
  let free: string[];
  const logged: unknown[] = [];
  const log = { error: (obj: unknown) => void logged.push(obj) };
  const ctx = (tx: Parameters<Parameters<TestApp['db']['transaction']>[0]>[0]) => ({ tx, now: t.clock.now(), log });

  beforeAll(async () => {
    t = await createTestApp();
    await loadSeason(t.db, demoSeason(t.clock.now(), { days: 14 }), t.clock.now());
    family = await createPerson(t.db, false);
    const rows = await t.db.execute(sql`
      select id from slots where kind = 'session' and start_at > now() + interval '3 days' order by start_at limit 60`);
    free = rows.rows.map((r) => r.id as string);
  });
  afterAll(async () => t?.close());

  const orderOf = async (bookingId: string) =>
    (await t.db.select().from(orders).where(eq(orders.bookingId, bookingId)))[0]!;

  /** A refund of `cents` on the order, left `status` (succeeded ones count in the order's total). */
  async function refund(orderId: string, bookingId: string, cents: number, status: 'pending' | 'succeeded' | 'failed') {
    await t.db.transaction(async (tx) => {
      const row = await requestRefund({ tx }, { orderId, bookingId, amountCents: cents, reason: 'staff_refund' });
      if (status === 'succeeded') await settleRefund(tx, row, `re_${randomUUID()}`, t.clock.now());
      if (status === 'failed') await recordFailedRefund(tx, row, 'card closed', true, t.clock.now());
    });
  }

  it('gives what the three earlier ways gave, to the cent, on every kind of order', async () => {
    type Refund = [number, 'pending' | 'succeeded' | 'failed'];
    const cases: { status: 'completed' | 'cancelled' | 'payment_pending'; refunds: Refund[]; reported?: number }[] = [
      { status: 'completed', refunds: [] },
      { status: 'completed', refunds: [[1000, 'succeeded']] },
      {
        status: 'completed',
        refunds: [
          [1000, 'succeeded'],
          [1, 'pending'],
        ],
      },
      {
        status: 'completed',
        refunds: [
          [995, 'pending'],
          [1000, 'failed'],
        ],
      },
      { status: 'completed', refunds: [[3995, 'succeeded']] },
      {
        status: 'cancelled',
        refunds: [
          [2000, 'succeeded'],
          [1995, 'pending'],
        ],
      },
      { status: 'completed', refunds: [[500, 'succeeded']], reported: 4500 },
      { status: 'completed', refunds: [[100, 'pending']], reported: 3990 },
      { status: 'payment_pending', refunds: [] },
    ];
    const made: { bookingId: string; orderId: string }[] = [];
    for (const c of cases) {
      const { id } = await bookDirect(t.db, family, free.pop()!, { status: c.status });
      const order = await orderOf(id);
      for (const [cents, status] of c.refunds) await refund(order.id, id, cents, status);
      if (c.reported)
        await t.db.transaction((tx) =>
          syncOrderRefunded(tx, order.id, t.clock.now(), c.reported).then(() => undefined),
        );
      made.push({ bookingId: id, orderId: order.id });
    }
    // More photos bought on the first booking: an order of its own, never the booking's money.
    const photoOrder = (
      await t.db
        .insert(orders)
        .values({
          bookingId: made[1]!.bookingId,
          userId: family.id,
          kind: 'photos',
          photoIds: [],
          status: 'paid',
          items: [],
          amountCents: 900,
          paidAt: new Date(),
          createdAt: new Date(Date.now() + 60_000),
        })
        .returning()
    )[0]!;

    const ids = [...made.map((m) => m.orderId), photoOrder.id];
    const reference = await t.db.execute(sql`
      select o.id, ${OLD_LEFT_ON_ORDER('o')} as left, ${OLD_UNSETTLED} as unsettled, o.refunded_cents
      from orders o where o.id in (${sql.join(
        ids.map((id) => sql`${id}::uuid`),
        sql`, `,
      )})`);
    const byOrder = new Map(reference.rows.map((r) => [r.id as string, r]));
    const listed = await moneyOnOrders(t.db, ids);
    const lefts: number[] = [];
    for (const id of ids) {
      const old = byOrder.get(id)!;
      const money = await moneyOnOrder(t.db, id);
      lefts.push(money.leftCents);
      expect(money.leftCents, id).toBe(Number(old.left));
      expect(money.goneCents, id).toBe(Number(old.refunded_cents) + Number(old.unsettled));
      expect(listed.get(id), id).toEqual(money);
      expect(money.unsettledCents, id).toBe(Number(old.unsettled));
    }
    // The figures are not all alike: the grid reaches every branch of the rule.
    expect(lefts).toEqual([3995, 2995, 2994, 2000, 0, 0, 0, 0, 0, 900]);

    const slots = await t.db.execute(sql`
      select b.id, b.slot_id, ${OLD_LEFT_ON_ORDER('lo')} as left,
        coalesce((select sum(o.refunded_cents) from orders o
          where o.booking_id = b.id and o.kind = 'booking'), 0)::int as refunded
      from bookings b join orders lo on lo.booking_id = b.id and lo.kind = 'booking'
      where b.id in (${sql.join(
        made.map((m) => sql`${m.bookingId}::uuid`),
        sql`, `,
      )})`);
    const affected = new Map(
      (
        await bookingsOn(
          t.db,
          slots.rows.map((r) => r.slot_id as string),
        )
      ).map((b) => [b.bookingId, b]),
    );
    for (const r of slots.rows) {
      const view = toView((await findBookingRead(t.db, r.id as string))!);
      expect(view.leftCents, r.id as string).toBe(Number(r.left));
      expect(view.refundedCents, r.id as string).toBe(Number(r.refunded));
      const preview = affected.get(r.id as string);
      if (preview) expect(preview.paidCents).toBe(Number(r.left));
    }
    expect(affected.size).toBe(cases.filter((c) => c.status !== 'cancelled').length);
  });

  it('a payment move its table refuses changes nothing, with one error line', async () => {
    const { id } = await bookDirect(t.db, family, free.pop()!, { status: 'completed' });
    const paid = await orderOf(id);
    for (const [name, run] of [
      ['succeed', (tx: never) => succeedPayment(ctx(tx), paid.id, `pi_${randomUUID()}`)],
      ['decline', (tx: never) => declinePayment(ctx(tx), paid.id)],
      ['abandon', (tx: never) => abandonPayment(ctx(tx), paid.id)],
    ] as const) {
      const before = logged.length;
      await expect(t.db.transaction((tx) => run(tx as never))).rejects.toMatchObject({
        code: 'ILLEGAL_TRANSITION',
        statusCode: 409,
      });
      expect(logged.slice(before)).toEqual([{ orderId: paid.id, move: name }]);
      expect(await findOrder(t.db, paid.id)).toEqual(paid);
    }
  });

  it('a declined order may be paid again, and is then no longer reconciled', async () => {
    const { id } = await bookDirect(t.db, family, free.pop()!, { status: 'payment_pending' });
    const order = await orderOf(id);
    await t.db.update(orders).set({ reconcileAt: new Date() }).where(eq(orders.id, order.id));
    await t.db.transaction((tx) => declinePayment(ctx(tx), order.id));
    await t.db.transaction((tx) => declinePayment(ctx(tx), order.id));
    expect((await findOrder(t.db, order.id))!.status).toBe('failed');
    await t.db.transaction((tx) => succeedPayment(ctx(tx), order.id, 'pi_paid_again'));
    expect(await findOrder(t.db, order.id)).toMatchObject({
      status: 'paid',
      paymentIntentId: 'pi_paid_again',
      reconcileAt: null,
      paidAt: t.clock.now(),
    });
  });

  it('a refund settled or given up meanwhile is left as it is', async () => {
    const { id } = await bookDirect(t.db, family, free.pop()!, { status: 'completed' });
    const order = await orderOf(id);
    const row = await t.db.transaction((tx) =>
      requestRefund({ tx }, { orderId: order.id, bookingId: id, amountCents: 700, reason: 'staff_refund' }),
    );
    await t.db.transaction((tx) => recordFailedRefund(tx, row, 'card closed', true, t.clock.now()));
    await t.db.transaction((tx) => settleRefund(tx, row, 're_late', t.clock.now()));
    expect(await findRefund(t.db, row.id)).toMatchObject({ status: 'failed', stripeRefundId: null, attempts: 1 });
    expect((await moneyOnOrder(t.db, order.id)).leftCents).toBe(3995 - 700);
  });
});
