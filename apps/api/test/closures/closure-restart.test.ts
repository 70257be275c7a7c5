import { sql } from 'drizzle-orm';
import { zonedToInstant } from '@kringle/contracts/dates';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closuresPass } from '../../src/jobs/closures.job';
import { refundsJob } from '../../src/jobs/refunds.job';
import { SYDNEY } from '../staff/staff-fixtures';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { closureWorld, paidBooking, rangeOf, refundedAtStripe, type ClosureWorld } from './closure-fixtures';

/**
 * A closure survives a process stopping midway (decision 0055): process A has committed the first
 * booking's outcome and is waiting on Stripe for its refund when it stops answering; process B
 * (same database) handles the rest, and its refund job resends A's refund with the same key.
 * Every booking is refunded exactly once, at Stripe as in the database.
 */
describe('closures: a process stopping midway', { timeout: 60_000 }, () => {
  let c: ClosureWorld;
  let b: TestApp;
  beforeAll(async () => {
    c = await closureWorld({ proxy: true });
    c.w.clock.set(zonedToInstant(c.w.day, '09:45', SYDNEY));
    b = await createTestApp(c.env, c.w.clock, undefined, { databaseUrl: c.w.t.databaseUrl });
  });
  afterAll(async () => {
    await b?.close();
    await c?.close();
  });

  it('hands the rest to another process and refunds each booking once', async () => {
    const booked = [];
    for (const s of c.w.sessions.slice(0, 3)) booked.push(await paidBooking(c, s.id));
    const local = (at: string) =>
      new Intl.DateTimeFormat('en-GB', {
        timeZone: SYDNEY,
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(at));
    const body = {
      ...rangeOf(c, local(c.w.sessions[0]!.start_at), local(c.w.sessions[3]!.start_at)),
      remedy: 'refund',
      message: '',
      confirm: c.sydneyName,
    };
    const res = await c.w.call('POST', '/staff/closures', c.manager, body);
    expect(res.statusCode, res.body).toBe(202);

    // Process A: its first refund reaches Stripe, and the answer never comes back to it.
    const held = c.proxy!.holdNext('POST /v1/refunds');
    const passA = closuresPass(c.w.t.app)();
    await held.reached;
    const handledByA = (
      await c.w.t.db.execute(sql`select count(*)::int as n from closure_bookings where outcome is not null`)
    ).rows[0]!.n;
    expect(handledByA).toBe(1);

    // Process B picks up what is left, and later resends the refund A left pending.
    await closuresPass(b.app)();
    expect((await c.w.t.db.execute(sql`select status from closures`)).rows).toEqual([{ status: 'done' }]);
    c.w.clock.set(new Date(c.w.clock.now().getTime() + 2 * 60_000));
    await refundsJob(b.app).run();
    held.release();
    await passA;

    for (const one of booked) {
      expect(refundedAtStripe(c, one.intentId), one.reference).toBe(3995);
      expect((await c.w.t.db.execute(sql`select status from refunds where booking_id = ${one.id}::uuid`)).rows).toEqual(
        [{ status: 'succeeded' }],
      );
    }
    expect(
      (await c.w.t.db.execute(sql`select outcome, count(*)::int as n from closure_bookings group by outcome`)).rows,
    ).toEqual([{ outcome: 'refunded', n: 3 }]);
  });
});
