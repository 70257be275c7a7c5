import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../src/modules/audit-trail/audit-entries.repository';
import { lockBooking } from '../../src/modules/booking-lifecycle/booking-rows.repository';
import { lapseCheckout } from '../../src/modules/booking-lifecycle/payment-transitions';
import { CARDS, payWithCard } from '../helpers/payments';
import type { Person } from '../staff/staff-fixtures';
import { until, voucherDay, type VoucherDay } from './voucher-fixtures';

/**
 * A checkout paid partly by a gift voucher whose card paid after its hold lapsed (between the lapse
 * and the intent's cancel): the lapse gave the voucher its part back, so the late payment takes it
 * again before it confirms the booking, or, when the voucher was spent meanwhile, refunds the card
 * in full and leaves the booking cancelled. Never a booking with its voucher part given back too.
 */
describe('a late payment after a lapse, with a gift voucher or account credit', () => {
  let d: VoucherDay;
  beforeAll(async () => {
    d = await voucherDay();
  });
  afterAll(async () => d?.close());

  /** The checkout's hold lapses before its card is paid, as the lapse job would have it. */
  const lapse = (bookingId: string, orderId: string, holdId: string) =>
    d.w.t.db.transaction(async (tx) =>
      lapseCheckout(
        { tx, now: d.w.t.app.clock.now(), log: d.w.t.app.log, actor: SYSTEM },
        await lockBooking(tx, bookingId),
        orderId,
        holdId,
      ),
    );

  /** A voucher of $20 paying part of a checkout whose card part is not paid yet; then the hold lapses. */
  async function lapsedWithVoucher(who: Person) {
    const v = await d.bought(who, 2000);
    const c = await d.cart(who, { vouchers: [v.code] });
    const open = await d.checkout(who, c.holdId, c.res.json().id);
    expect(open.statusCode, open.body).toBe(201);
    const { bookingId, orderId, client_secret } = open.json();
    expect(open.json().amountCents).toBe(d.price - 2000);
    await lapse(bookingId, orderId, c.holdId);
    expect((await d.lookUp(who, v.code)).balanceCents).toBe(2000);
    return { v, bookingId: bookingId as string, clientSecret: client_secret as string };
  }
  const refundsOf = async (bookingId: string) =>
    (
      await d.w.t.db.execute(
        sql`select method, amount_cents, reason from refunds where booking_id = ${bookingId}::uuid order by method`,
      )
    ).rows;

  it('takes the voucher part again and confirms the booking when the voucher still has it', async () => {
    const who = await d.family('LateButCovered');
    const { v, bookingId, clientSecret } = await lapsedWithVoucher(who);
    expect((await payWithCard(d.sandbox, clientSecret, CARDS.success)).status).toBe('succeeded');
    await until(
      () => d.bookingStatus(who, bookingId),
      (s) => s === 'completed',
    );
    expect(await d.lookUp(who, v.code)).toMatchObject({ balanceCents: 0, status: 'spent' });
    expect(await refundsOf(bookingId)).toEqual([]);
    const moves = await d.w.t.db.execute(
      sql`select reason, cents from voucher_entries where voucher_id = ${v.id}::uuid order by reason, cents`,
    );
    // Sold, spent at checkout, given back by the lapse, spent again by the late payment (the test clock stands still).
    expect(moves.rows).toEqual([
      { reason: 'returned', cents: 2000 },
      { reason: 'sold', cents: 2000 },
      { reason: 'spent', cents: -2000 },
      { reason: 'spent', cents: -2000 },
    ]);
  });

  it('refunds the card in full and leaves the booking cancelled when the voucher was spent meanwhile', async () => {
    const who = await d.family('LateAndSpent');
    const { v, bookingId, clientSecret } = await lapsedWithVoucher(who);
    // Spent on another booking in the meantime.
    const other = await d.cart(who, { vouchers: [v.code] });
    expect((await d.checkout(who, other.holdId, other.res.json().id)).statusCode).toBe(201);
    expect((await d.lookUp(who, v.code)).balanceCents).toBe(0);

    expect((await payWithCard(d.sandbox, clientSecret, CARDS.success)).status).toBe('succeeded');
    const refunds = await until(
      () => refundsOf(bookingId),
      (rows) => rows.length === 2,
    );
    expect(refunds).toEqual([
      { method: 'card', amount_cents: d.price - 2000, reason: 'balance_spent_before_payment' },
      { method: 'voucher', amount_cents: 2000, reason: expect.any(String) },
    ]);
    const booking = await d.w.call('GET', `/bookings/${bookingId}`, who);
    expect(booking.json().status).toBe('cancelled');
    // Nothing more on the voucher: its part came back once, at the lapse, and went to the other booking.
    expect((await d.lookUp(who, v.code)).balanceCents).toBe(0);
    const mail = await d.w.t.db.execute(
      sql`select subject, text from mail_outbox where to_address = ${who.email} and subject like 'Refund for%'`,
    );
    expect(mail.rows).toHaveLength(1);
    expect(mail.rows[0]!.subject).toMatch(/the booking could not be completed$/);
    expect(mail.rows[0]!.text).toContain(`We have refunded $${((d.price - 2000) / 100).toFixed(2)} to your card.`);
    expect(mail.rows[0]!.text).toContain('What a gift voucher or account credit paid is back on it.');
  });

  it('takes the account credit again too, or the booking would have been paid twice from it', async () => {
    const who = await d.family('LateOnCredit');
    await d.w.t.db.execute(sql`insert into credit_entries (user_id, cents, reason, expires_at)
      values (${who.id}::uuid, 1000, 'cancel_refund', now() + interval '3 years')`);
    const credit = async () => (await d.w.call('GET', '/user/credit', who)).json().balanceCents as number;
    const c = await d.cart(who, { useCredit: true });
    const open = await d.checkout(who, c.holdId, c.res.json().id);
    expect(open.statusCode, open.body).toBe(201);
    const { bookingId, orderId, client_secret } = open.json();
    expect(await credit()).toBe(0);
    await lapse(bookingId, orderId, c.holdId);
    expect(await credit()).toBe(1000);
    expect((await payWithCard(d.sandbox, client_secret, CARDS.success)).status).toBe('succeeded');
    await until(
      () => d.bookingStatus(who, bookingId),
      (s) => s === 'completed',
    );
    expect(await credit()).toBe(0);
    expect(await refundsOf(bookingId)).toEqual([]);
  });
});
