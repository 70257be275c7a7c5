import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, orders } from '../../src/db/schema/bookings';
import { reservations } from '../../src/db/schema/reservations';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { findBooking, findOrder, type BookingRow } from '../../src/modules/booking-lifecycle/booking-rows.repository';
import type { OrderRow } from '../../src/modules/order-payments/order-rows.repository';
import {
  nextState,
  stateOf,
  type BookingState,
  type TransitionName,
} from '../../src/modules/booking-lifecycle/transition-table';
import type { Ctx } from '../../src/modules/booking-lifecycle/transition-guard';
import {
  cancelPayment,
  failPayment,
  lapseCheckout,
  recordPayment,
} from '../../src/modules/booking-lifecycle/payment-transitions';
import {
  cancel,
  checkIn,
  markNoShow,
  reschedule,
  undoCheckIn,
  undoNoShow,
} from '../../src/modules/booking-lifecycle/booking-change-transitions';
import { SYSTEM } from '../../src/modules/audit-trail/audit-entries.repository';
import { bookDirect, createPerson, type Person } from '../staff/staff-fixtures';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * Issue 33: the named transitions against real rows. A booking is put in each state, then each
 * transition is tried on it: it moves to the state the table names, or it is refused with
 * ILLEGAL_TRANSITION, a log line, and the booking, its order and its session exactly as they were.
 */
const STATES: Exclude<BookingState, 'new'>[] = [
  'pending',
  'failed',
  'lapsed',
  'confirmed',
  'checked_in',
  'no_show',
  'cancelled',
];

type Run = (ctx: Ctx, b: BookingRow, o: OrderRow, spare: string) => Promise<unknown>;
const RUNS: Partial<Record<TransitionName, Run>> = {
  failPayment: (ctx, b, o) => failPayment(ctx, b, o),
  cancelPayment: (ctx, b, o) => cancelPayment(ctx, b, o),
  lapseCheckout: (ctx, b, o) => lapseCheckout(ctx, b, o.id, randomUUID()),
  cancel: (ctx, b, o) =>
    cancel(ctx, b, o, { reason: 'customer_cancelled', refundCents: 0, refundReason: 'customer_cancelled' }),
  reschedule: async (ctx, b, _o, spare) => {
    const reservationId = randomUUID();
    const expiresAt = new Date(ctx.now.getTime() + 600_000);
    await ctx.tx.insert(reservations).values({
      id: reservationId,
      userId: b.userId,
      slotId: spare,
      locationId: b.locationId,
      expiresAt,
      refreshesLeft: 2,
      bookingId: b.id,
    });
    await ctx.tx.execute(
      sql`update slots set hold_reservation_id =
${reservationId}::uuid, hold_expires_at = ${expiresAt.toISOString()}::timestamptz where id = ${spare}::uuid`,
    );
    const slotTypeId = (await ctx.tx.execute(sql`select slot_type_id from slots where id = ${spare}::uuid`)).rows[0]!
      .slot_type_id as string;
    return reschedule(ctx, b, { id: spare, slotTypeId }, reservationId);
  },
  markNoShow: (ctx, b) => markNoShow(ctx, b),
  undoCheckIn: (ctx, b) => undoCheckIn(ctx, b),
  undoNoShow: (ctx, b) => undoNoShow(ctx, b),
};

describe('named booking transitions on real rows', () => {
  let t: TestApp;
  let family: Person;
  let free: string[];
  const logged: unknown[] = [];
  const log = { error: (obj: unknown) => void logged.push(obj) };

  beforeAll(async () => {
    t = await createTestApp();
    await loadSeason(t.db, demoSeason(t.clock.now(), { days: 14 }), t.clock.now());
    family = await createPerson(t.db, false);
    const rows = await t.db.execute(sql`
      select id from slots where kind = 'session' and start_at > now() + interval '3 days' order by start_at limit
      200`);
    free = rows.rows.map((r) => r.id as string);
  });
  afterAll(async () => t?.close());

  /** A booking of the family in `state`, on a session of its own. */
  async function bookingIn(state: Exclude<BookingState, 'new'>): Promise<{ booking: BookingRow; order: OrderRow }> {
    const unpaid = ['pending', 'failed', 'lapsed'].includes(state);
    const status = unpaid ? 'payment_pending' : state === 'cancelled' ? 'cancelled' : 'completed';
    const { id } = await bookDirect(t.db, family, free.pop()!, { status });
    const now = t.clock.now();
    if (state === 'failed') await t.db.update(bookings).set({ status: 'payment_failed' }).where(eq(bookings.id, id));
    if (state === 'lapsed')
      await t.db.update(bookings).set({ status: 'cancelled', cancelReason: 'hold_expired' }).where(eq(bookings.id, id));
    if (state === 'cancelled')
      await t.db.update(bookings).set({ cancelReason: 'customer_cancelled' }).where(eq(bookings.id, id));
    if (state === 'checked_in') await t.db.update(bookings).set({ checkedInAt: now }).where(eq(bookings.id, id));
    if (state === 'no_show') await t.db.update(bookings).set({ noShowAt: now }).where(eq(bookings.id, id));
    const booking = (await findBooking(t.db, id))!;
    const [order] = await t.db.select().from(orders).where(eq(orders.bookingId, id));
    expect(stateOf(booking)).toBe(state);
    return { booking, order: order! };
  }

  const sessionOf = async (slotId: string) =>
    (await t.db.execute(sql`select booking_id, hold_reservation_id from slots where id = ${slotId}::uuid`)).rows[0];

  const cases = STATES.flatMap((state) =>
    (Object.keys(RUNS) as TransitionName[]).map((name) => [state, name] as const),
  );
  it.each(cases)('%s × %s', async (state, name) => {
    const { booking, order } = await bookingIn(state);
    const sessionBefore = await sessionOf(booking.slotId);
    const expected = nextState(state, name);
    const attempt = t.db.transaction((tx) =>
      RUNS[name]!({ tx, now: t.clock.now(), log, actor: SYSTEM }, booking, order, free.pop()!),
    );
    if (expected) {
      await attempt;
      expect(stateOf(await findBooking(t.db, booking.id))).toBe(expected);
      return;
    }
    const before = logged.length;
    await expect(attempt).rejects.toMatchObject({ code: 'ILLEGAL_TRANSITION', statusCode: 409 });
    expect(logged.length).toBe(before + 1);
    expect(await findBooking(t.db, booking.id)).toEqual(booking);
    expect(await findOrder(t.db, order.id)).toEqual(order);
    expect(await sessionOf(booking.slotId)).toEqual(sessionBefore);
  });

  it.each(STATES)(
    'a payment for a booking in %s: confirmed, refunded with the session lost, or refunded as late',
    async (state) => {
      const { booking, order: made } = await bookingIn(state);
      if (state === 'lapsed')
        await t.db.execute(sql`update slots set booking_id = null where id = ${booking.slotId}::uuid`);
      // The webhook records a payment only on an unpaid order (an order paid already is left alone):
      // a booking not awaiting payment is paid late on an order its cancel, or a decline, left failed.
      if (made.status === 'paid')
        await t.db.update(orders).set({ status: 'failed', paidAt: null }).where(eq(orders.id, made.id));
      const order = (await findOrder(t.db, made.id))!;
      const result = await t.db.transaction((tx) =>
        recordPayment({ tx, now: t.clock.now(), log, actor: SYSTEM }, booking, order, `pi_${randomUUID()}`),
      );
      const after = stateOf(await findBooking(t.db, booking.id));
      const awaiting = nextState(state, 'confirmPaid') !== null;
      expect(result.outcome).toBe(awaiting ? 'confirmed' : 'late');
      expect(after).toBe(awaiting ? 'confirmed' : state);
      expect(result.refund === null).toBe(awaiting);
      expect((await findOrder(t.db, order.id))!.status).toBe('paid');
    },
  );

  it('a payment after the session went to another family: cancelled and refunded in full', async () => {
    const { booking, order } = await bookingIn('lapsed');
    const other = await createPerson(t.db, false);
    await bookDirect(t.db, other, booking.slotId, { status: 'completed' });
    const result = await t.db.transaction((tx) =>
      recordPayment({ tx, now: t.clock.now(), log, actor: SYSTEM }, booking, order, `pi_${randomUUID()}`),
    );
    expect(result).toMatchObject({ outcome: 'session_lost', refund: { amountCents: order.amountCents } });
    expect(await findBooking(t.db, booking.id)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'session_taken_before_payment',
    });
  });

  it('a payment recorded on an order already paid is refused, changing nothing (decision 0091)', async () => {
    const { booking, order } = await bookingIn('confirmed');
    expect(order.status).toBe('paid');
    const before = logged.length;
    await expect(
      t.db.transaction((tx) =>
        recordPayment({ tx, now: t.clock.now(), log, actor: SYSTEM }, booking, order, `pi_${randomUUID()}`),
      ),
    ).rejects.toMatchObject({ code: 'ILLEGAL_TRANSITION', statusCode: 409 });
    expect(logged.slice(before)).toEqual([{ orderId: order.id, move: 'succeed' }]);
    expect(await findOrder(t.db, order.id)).toEqual(order);
    expect(await findBooking(t.db, booking.id)).toEqual(booking);
    const refunds = await t.db.execute(sql`select 1 from refunds where order_id = ${order.id}::uuid`);
    expect(refunds.rows).toEqual([]);
  });

  it('a check-in moves a confirmed or no-show booking once and nothing else', async () => {
    for (const state of STATES) {
      const { booking } = await bookingIn(state);
      const moved = await t.db.transaction((tx) => checkIn({ tx, now: t.clock.now(), actor: SYSTEM }, booking.id));
      expect(moved, state).toBe(nextState(state, 'checkIn') !== null);
      expect(stateOf(await findBooking(t.db, booking.id)), state).toBe(nextState(state, 'checkIn') ?? state);
    }
  });
});
