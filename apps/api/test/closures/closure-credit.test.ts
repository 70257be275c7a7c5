import { sql } from 'drizzle-orm';
import { zonedToInstant } from '@kringle/contracts/dates';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closuresPass } from '../../src/jobs/closures.job';
import { headersOf, SYDNEY, type Person } from '../staff/staff-fixtures';
import { closureWorld, paidBooking, rangeOf, refundedAtStripe, type ClosureWorld } from './closure-fixtures';

/**
 * A closure's third remedy (issue 52, API.md "credit"): each family's payment becomes account credit
 * with CLOSURE_CREDIT_BONUS_PERCENT on top (10 by default), nothing goes back to the card, and the
 * family is told how much it has to spend.
 */
describe('closures: the credit remedy', () => {
  let c: ClosureWorld;
  const local = (at: string) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: SYDNEY, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      new Date(at),
    );
  const post = async (url: string, who: Person, payload: object) =>
    c.w.t.app.inject({
      method: 'POST',
      url: `/api/v1${url}`,
      headers: await headersOf(c.w.t.app.idTokens, who),
      payload,
    });

  beforeAll(async () => {
    c = await closureWorld();
    c.w.clock.set(zonedToInstant(c.w.day, '09:45', SYDNEY));
  });
  afterAll(async () => c?.close());

  it('turns each payment into credit with a 10% bonus, refunds nothing to the card, and says so', async () => {
    const a = await paidBooking(c, c.w.sessions[0]!.id);
    const b = await paidBooking(c, c.w.sessions[1]!.id);
    const res = await post('/staff/closures', c.manager, {
      ...rangeOf(c, local(c.w.sessions[0]!.start_at), local(c.w.sessions[2]!.start_at)),
      remedy: 'credit',
      message: 'A burst pipe.',
      confirm: c.sydneyName,
    });
    expect(res.statusCode, res.body).toBe(202);
    const pass = closuresPass(c.w.t.app);
    await Promise.all([pass(), pass()]);
    await pass();
    const view = (await c.w.call('GET', `/staff/closures/${res.json().id}`, c.manager)).json();
    expect(view).toMatchObject({ status: 'done', total: 2, done: 2 });
    expect(view.outcomes.map((o: { outcome: string }) => o.outcome)).toEqual(['refunded', 'refunded']);

    for (const booked of [a, b]) {
      const credit = (await c.w.call('GET', '/user/credit', booked.family)).json();
      // 3995 paid, and 400 (10%, rounded) on top, however often the job ran.
      expect(credit.balanceCents).toBe(3995 + 400);
      expect(credit.items.map((i: { reason: string; cents: number }) => [i.reason, i.cents]).sort()).toEqual([
        ['closure_bonus', 400],
        ['closure_refund', 3995],
      ]);
      expect(refundedAtStripe(c, booked.intentId)).toBe(0);
      expect((await c.w.call('GET', `/bookings/${booked.id}`, booked.family)).json().status).toBe('cancelled');
      const mail = (
        await c.w.t.db.execute(
          sql`select subject, text from mail_outbox
            where to_address = ${booked.family.email} and subject like 'Cancelled by us%'`,
        )
      ).rows;
      expect(mail).toHaveLength(1);
      expect(mail[0]!.subject).toBe(`Cancelled by us: ${booked.reference}, $43.95 in account credit`);
      expect(mail[0]!.text).toContain('$43.95 to spend on your next booking');
    }
  });
});
