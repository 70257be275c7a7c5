import { sql } from 'drizzle-orm';
import { zonedToInstant } from '@kringle/contracts/dates';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closuresPass } from '../../src/jobs/closures.job';
import { createPerson, SYDNEY, type Person } from '../staff/staff-fixtures';
import { closureWorld, paidBooking, rangeOf, refundedAtStripe, type ClosureWorld } from './closure-fixtures';

/**
 * Issue 53 item 2: support refunded $10 of $39.95, then the session was closed. The closure's
 * e-mail said "we refund all of it, $39.95" and My Bookings offered "Refund me in full ($39.95)"
 * while $29.95 was refunded. Every amount a family is told is what is left on its order.
 */
describe('refunds offered after a partial refund: what is left, everywhere', () => {
  let c: ClosureWorld;
  let support: Person;
  const local = (at: string) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: SYDNEY, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      new Date(at),
    );
  const mailsTo = async (email: string) =>
    (await c.w.t.db.execute(sql`select subject, text from mail_outbox where to_address = ${email} order by created_at`))
      .rows as { subject: string; text: string }[];

  /** A paid booking of $39.95 with $10 refunded by support (really refunded at the sandbox). */
  async function partlyRefunded(slotId: string) {
    const booked = await paidBooking(c, slotId);
    const orderId = (await c.w.t.db.execute(sql`select id from orders where booking_id = ${booked.id}::uuid`)).rows[0]!
      .id as string;
    const res = await c.w.call('POST', `/staff/orders/${orderId}/refunds`, support, {
      amountCents: 1000,
      reason: 'The print was late',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(refundedAtStripe(c, booked.intentId)).toBe(1000);
    return booked;
  }

  beforeAll(async () => {
    c = await closureWorld();
    support = await createPerson(c.w.t.db, true, undefined, { role: 'support', mfaEnrolled: true });
  });
  afterAll(async () => c?.close());
  const policyRefunds = (startAt: unknown) =>
    new Date(Math.min(Date.now(), new Date(String(startAt)).getTime() - 72 * 3600_000));

  it("cancel: the booking's refund offer, the cancellation e-mail and the refund are $29.95", async () => {
    // Three days before the session (never later than now), so the policy refunds whatever the hour.
    c.w.clock.set(policyRefunds(c.w.sessions[6]!.start_at));
    const booked = await partlyRefunded(c.w.sessions[6]!.id);
    expect((await c.w.call('GET', `/bookings/${booked.id}`, booked.family)).json()).toMatchObject({
      amountCents: 3995,
      refundableCents: 2995,
    });
    const res = await c.w.call('POST', `/bookings/${booked.id}/cancel`, booked.family, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refund).toMatchObject({ amountCents: 2995 });
    expect(refundedAtStripe(c, booked.intentId)).toBe(3995);
    const cancelled = (await mailsTo(booked.family.email)).at(-1)!;
    expect(cancelled.text).toContain('We are refunding $29.95 to your card');
    expect(cancelled.text).not.toContain('$39.95 to your card');
  });

  it('a refund decided but not yet at the card counts as gone: My Bookings and cancel offer what is left', async () => {
    c.w.clock.set(policyRefunds(c.w.sessions[7]!.start_at));
    const booked = await paidBooking(c, c.w.sessions[7]!.id);
    const order = (await c.w.t.db.execute(sql`select id from orders where booking_id = ${booked.id}::uuid`)).rows[0]!
      .id as string;
    // Support's $10, recorded and waiting for Stripe (pending, as after a Stripe outage): refunded_cents is still 0.
    await c.w.t.db.execute(
      sql`insert into refunds (order_id, booking_id, amount_cents, reason) values
(${order}::uuid, ${booked.id}::uuid, 1000, 'staff_refund')`,
    );
    expect((await c.w.call('GET', `/bookings/${booked.id}`, booked.family)).json()).toMatchObject({
      refundableCents: 2995,
    });
    const res = await c.w.call('POST', `/bookings/${booked.id}/cancel`, booked.family, {});
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().refund).toMatchObject({ amountCents: 2995 });
  });

  it("offer_move: the offer e-mail, the booking's offer and the refund taken are $29.95", async () => {
    c.w.clock.set(zonedToInstant(c.w.day, '09:45', SYDNEY));
    const s = c.w.sessions[0]!;
    const booked = await partlyRefunded(s.id);
    const range = rangeOf(c, local(s.start_at), local(c.w.sessions[1]!.start_at));
    const body = { ...range, remedy: 'offer_move', message: '', confirm: c.sydneyName };
    // The manager's preview said $29.95 before too (issue 53); it reads the same function now.
    const preview = (await c.w.call('POST', '/staff/closures/preview', c.manager, range)).json();
    expect(preview.bookings).toEqual([expect.objectContaining({ bookingId: booked.id, paidCents: 2995 })]);
    expect(preview.refundTotalCents).toBe(2995);
    expect((await c.w.call('POST', '/staff/closures', c.manager, body)).statusCode).toBe(202);
    await closuresPass(c.w.t.app)();

    const offerMail = (await mailsTo(booked.family.email)).find((m) => m.subject.startsWith('Your session is closed'))!;
    expect(offerMail.text).toContain('we refund all that is left to refund, $29.95.');
    expect(offerMail.text).not.toContain('$39.95');
    const booking = (await c.w.call('GET', `/bookings/${booked.id}`, booked.family)).json();
    expect(booking.closure.offer).toMatchObject({ refundCents: 2995 });

    const refunded = await c.w.call('POST', `/bookings/${booked.id}/closure/refund`, booked.family);
    expect(refunded.statusCode, refunded.body).toBe(200);
    expect(refundedAtStripe(c, booked.intentId)).toBe(3995);
    const refundMail = (await mailsTo(booked.family.email)).at(-1)!;
    expect(refundMail.subject).toMatch(/, \$29\.95 refunded$/);
    expect(refundMail.text).toContain('we are refunding all that is left to refund, $29.95, to your card');
  });

  it('refund remedy: the e-mail and the refund are $29.95', async () => {
    c.w.clock.set(zonedToInstant(c.w.day, '09:45', SYDNEY));
    const s = c.w.sessions[3]!;
    const booked = await partlyRefunded(s.id);
    const body = {
      ...rangeOf(c, local(s.start_at), local(c.w.sessions[4]!.start_at)),
      remedy: 'refund',
      message: '',
      confirm: c.sydneyName,
    };
    expect((await c.w.call('POST', '/staff/closures', c.manager, body)).statusCode).toBe(202);
    await closuresPass(c.w.t.app)();
    expect(refundedAtStripe(c, booked.intentId)).toBe(3995);
    const refundMail = (await mailsTo(booked.family.email)).at(-1)!;
    expect(refundMail.subject).toMatch(/, \$29\.95 refunded$/);
    expect(refundMail.text).toContain('all that is left to refund, $29.95');
    expect(refundMail.text).not.toContain('$39.95');
  });
});
