import { sql } from 'drizzle-orm';
import { zonedToInstant } from '@kringle/contracts/dates';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closuresPass } from '../../src/jobs/closures.job';
import { expectContractError } from '../security/security-fixtures';
import { createPerson, SYDNEY } from '../staff/staff-fixtures';
import { closureWorld, paidBooking, rangeOf, refundedAtStripe, type ClosureWorld } from './closure-fixtures';

/** Issue 35's offer_move remedy (decision 0055): a held replacement, accepted, refused, or left to lapse. */
describe('closures: the offer_move remedy', () => {
  let c: ClosureWorld;
  const local = (at: string) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: SYDNEY, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      new Date(at),
    );
  const slotOf = async (bookingId: string) =>
    (await c.w.t.db.execute(sql`select slot_id from bookings where id = ${bookingId}::uuid`)).rows[0]!
      .slot_id as string;

  beforeAll(async () => {
    c = await closureWorld();
  });
  afterAll(async () => c?.close());
  beforeEach(() => c.w.clock.set(zonedToInstant(c.w.day, '09:45', SYDNEY)));

  it(
    'holds the nearest free session for each family; one accepts, one takes the refund, one lets it ' + 'lapse',
    async () => {
      const [s0, s1, s2] = c.w.sessions;
      const accepting = await paidBooking(c, s0!.id);
      const refusing = await paidBooking(c, s1!.id);
      const silent = await paidBooking(c, s2!.id);
      const elsewhere = await paidBooking(c, c.w.sessions.at(-1)!.id);
      expectContractError(
        await c.w.call('POST', `/bookings/${elsewhere.id}/closure/accept`, elsewhere.family),
        409,
        'NO_CLOSURE_OFFER',
      );
      const body = {
        ...rangeOf(c, local(s0!.start_at), local(c.w.sessions[3]!.start_at)),
        remedy: 'offer_move',
        message: 'Sorry!',
        confirm: c.sydneyName,
      };
      const res = await c.w.call('POST', '/staff/closures', c.manager, body);
      expect(res.statusCode, res.body).toBe(202);
      const id = res.json().id as string;
      await closuresPass(c.w.t.app)();
      const view = (await c.w.call('GET', `/staff/closures/${id}`, c.manager)).json();
      expect(view).toMatchObject({ status: 'done', total: 3, done: 3 });
      expect(view.outcomes.map((o: { outcome: string }) => o.outcome)).toEqual([
        'move_offered',
        'move_offered',
        'move_offered',
      ]);

      // Each family sees why and what is held; three different sessions, none of them closed, none holdable by others.
      const offers = [];
      for (const b of [accepting, refusing, silent]) {
        const booking = (await c.w.call('GET', `/bookings/${b.id}`, b.family)).json();
        expect(booking).toMatchObject({
          status: 'completed',
          closure: { reason: 'Santa is unwell', offer: { slotId: expect.any(String), expiresAt: expect.any(String) } },
        });
        offers.push(booking.closure.offer as { slotId: string; startAt: string; expiresAt: string });
        const mails = (
          await c.w.t.db.execute(sql`select subject, html from mail_outbox where to_address = ${b.family.email}`)
        ).rows as { subject: string; html: string }[];
        expect(mails).toHaveLength(1);
        expect(mails[0]!.subject).toMatch(/^Your session is closed: we are holding /);
        expect(mails[0]!.html).toContain(`/bookings?closure=${b.id}`);
      }
      expect(new Set(offers.map((o) => o.slotId)).size).toBe(3);
      expect(offers.some((o) => [s0!.id, s1!.id, s2!.id].includes(o.slotId))).toBe(false);
      expect(new Date(offers[0]!.expiresAt).getTime()).toBeLessThanOrEqual(c.w.clock.now().getTime() + 48 * 3_600_000);
      const stranger = await createPerson(c.w.t.db, false);
      expectContractError(
        await c.w.call('POST', '/bookings/reservation', stranger, { slotId: offers[0]!.slotId }),
        409,
        'SLOT_UNAVAILABLE',
      );
      expectContractError(
        await c.w.call('POST', `/bookings/${accepting.id}/closure/accept`, stranger),
        404,
        'NOT_FOUND',
      );

      // Accept: moved onto the held session, audited as the family's choice, e-mailed.
      const accepted = await c.w.call('POST', `/bookings/${accepting.id}/closure/accept`, accepting.family);
      expect(accepted.statusCode, accepted.body).toBe(200);
      expect(accepted.json()).toMatchObject({
        status: 'completed',
        slot: { id: offers[0]!.slotId },
        rescheduleCount: 0,
        closure: { offer: null },
      });
      expect(
        (await c.w.t.db.execute(sql`select booking_id from slots where id = ${offers[0]!.slotId}::uuid`)).rows[0]!
          .booking_id,
      ).toBe(accepting.id);
      expect(
        (await c.w.t.db.execute(sql`select booking_id from slots where id = ${s0!.id}::uuid`)).rows[0]!.booking_id,
      ).toBeNull();
      expectContractError(
        await c.w.call('POST', `/bookings/${accepting.id}/closure/accept`, accepting.family),
        409,
        'NO_CLOSURE_OFFER',
      );
      expectContractError(
        await c.w.call('POST', `/bookings/${accepting.id}/closure/refund`, accepting.family),
        409,
        'NO_CLOSURE_OFFER',
      );

      // Refund: cancelled, everything back at Stripe, the held session free again.
      const refunded = await c.w.call('POST', `/bookings/${refusing.id}/closure/refund`, refusing.family);
      expect(refunded.statusCode, refunded.body).toBe(200);
      expect(refunded.json()).toMatchObject({ status: 'cancelled', closure: { offer: null } });
      expect(refundedAtStripe(c, refusing.intentId)).toBe(3995);
      expect(
        (await c.w.t.db.execute(sql`select hold_reservation_id from slots where id = ${offers[1]!.slotId}::uuid`))
          .rows[0]!.hold_reservation_id,
      ).toBeNull();

      // Unanswered: still held until the offer's end (48 hours, or the session's start if sooner), then refunded in
      // full.
      expect(Date.parse(offers[2]!.expiresAt)).toBe(
        Math.min(Date.parse(offers[2]!.startAt) - 3_600_000, c.w.clock.now().getTime() + 48 * 3_600_000),
      );
      const pass = closuresPass(c.w.t.app);
      c.w.clock.set(new Date(new Date(offers[2]!.expiresAt).getTime() - 60_000));
      await pass();
      expect(refundedAtStripe(c, silent.intentId)).toBe(0);
      c.w.clock.set(new Date(new Date(offers[2]!.expiresAt).getTime() + 1000));
      await Promise.all([pass(), pass()]);
      expect(refundedAtStripe(c, silent.intentId)).toBe(3995);
      expect(
        (await c.w.t.db.execute(sql`select count(*)::int as n from refunds where booking_id = ${silent.id}::uuid`))
          .rows[0]!.n,
      ).toBe(1);
      expect(
        (await c.w.t.db.execute(sql`select hold_reservation_id from slots where id = ${offers[2]!.slotId}::uuid`))
          .rows[0]!.hold_reservation_id,
      ).toBeNull();
      const final = (await c.w.call('GET', `/staff/closures/${id}`, c.manager)).json();
      expect(final.outcomes.map((o: { outcome: string }) => o.outcome)).toEqual(['moved', 'refunded', 'refunded']);
      expect(final.outcomes[2].detail).toMatch(/not answered in 48 hours/);
      const audit = (
        await c.w.t.db.execute(
          sql`select booking_id, action from audit_entries where action like 'closure%' order by seq`,
        )
      ).rows;
      expect(audit).toEqual([
        { booking_id: accepting.id, action: 'closureMove' },
        { booking_id: refusing.id, action: 'closureCancel' },
        { booking_id: silent.id, action: 'closureCancel' },
      ]);
      expect(await slotOf(accepting.id)).toBe(offers[0]!.slotId);
    },
  );
});
