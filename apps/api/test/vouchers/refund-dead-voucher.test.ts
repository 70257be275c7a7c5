import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPerson, type Person } from '../staff/staff-fixtures';
import { voucherDay, type VoucherDay } from './voucher-fixtures';

/**
 * A booking paid by a gift voucher and refunded after the voucher expired or was cancelled: the
 * voucher cannot take its part back (the value would be lost), so it comes to the family as account
 * credit, three years more (decision 0115); the card's part still goes to the card.
 */
describe('a refund of what a dead voucher paid', () => {
  let d: VoucherDay;

  beforeAll(async () => {
    d = await voucherDay();
  });
  afterAll(async () => d?.close());

  /** A booking of `buyer`'s paid 2,000 by a voucher of its own and the rest by card. */
  async function paidWithVoucher(lastName: string) {
    const buyer = await d.family(lastName);
    const v = await d.bought(buyer, 2000);
    const c = await d.cart(buyer, { vouchers: [v.code] });
    expect(c.res.statusCode, c.res.body).toBe(201);
    const open = await d.checkoutAndPay(buyer, c.holdId, c.res.json().id);
    return { buyer, v, bookingId: open.json().bookingId as string };
  }
  const refunds = async (bookingId: string) =>
    (
      await d.w.t.db.execute(
        sql`select method, amount_cents from refunds where booking_id = ${bookingId}::uuid order by method`,
      )
    ).rows;
  const credit = async (who: Person) => (await d.w.call('GET', '/user/credit', who)).json();

  it('an expired voucher: its part becomes account credit, the card part goes to the card', async () => {
    const { buyer, v, bookingId } = await paidWithVoucher('Lapsed');
    await d.w.t.db.execute(sql`update vouchers set expires_at = now() - interval '1 minute' where id = ${v.id}::uuid`);

    const cancelled = await d.w.call('POST', `/bookings/${bookingId}/cancel`, buyer, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(await refunds(bookingId)).toEqual([
      { method: 'card', amount_cents: d.price - 2000 },
      { method: 'credit', amount_cents: 2000 },
    ]);
    const mine = await credit(buyer);
    expect(mine.balanceCents).toBe(2000);
    expect(mine.items).toEqual([expect.objectContaining({ cents: 2000, reason: 'voucher_refund', bookingId })]);
    // The voucher keeps what it had: nothing came back onto it.
    expect((await d.lookUp(buyer, v.code)).balanceCents).toBe(0);
  });

  it('a cancelled voucher: the same, after support sent its unspent balance to the buyer', async () => {
    const { buyer, v, bookingId } = await paidWithVoucher('Withdrawn');
    const support = await createPerson(
      d.w.t.db,
      true,
      { firstName: 'Sam', lastName: 'Withdraws' },
      { role: 'support', mfaEnrolled: true },
    );
    const cancel = await d.w.call('POST', `/staff/vouchers/${v.id}/cancel`, support, { reason: 'Customer asked' });
    expect(cancel.statusCode, cancel.body).toBe(200);

    const cancelled = await d.w.call('POST', `/bookings/${bookingId}/cancel`, buyer, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await refunds(bookingId)).find((r) => r.method === 'credit')).toEqual({
      method: 'credit',
      amount_cents: 2000,
    });
    expect((await credit(buyer)).balanceCents).toBe(2000);
    expect((await d.lookUp(buyer, v.code)).balanceCents).toBe(0);
  });

  it('partial refunds give a dead voucher its part as credit once in all, then the card the rest', async () => {
    const { buyer, v, bookingId } = await paidWithVoucher('Piecemeal');
    await d.w.t.db.execute(sql`update vouchers set expires_at = now() - interval '1 minute' where id = ${v.id}::uuid`);
    const desk = await createPerson(
      d.w.t.db,
      true,
      { firstName: 'Pat', lastName: 'Piecemeal' },
      { role: 'support', mfaEnrolled: true },
    );
    const orderId = (await d.w.t.db.execute(sql`select id from orders where booking_id = ${bookingId}::uuid`)).rows[0]!
      .id as string;
    for (const amountCents of [1000, 1000, d.price - 2000]) {
      const res = await d.w.call('POST', `/staff/orders/${orderId}/refunds`, desk, {
        amountCents,
        reason: 'Photos came out dark',
      });
      expect(res.statusCode, res.body).toBe(201);
    }
    expect(await refunds(bookingId)).toEqual([
      { method: 'card', amount_cents: d.price - 2000 },
      { method: 'credit', amount_cents: 1000 },
      { method: 'credit', amount_cents: 1000 },
    ]);
    expect((await credit(buyer)).balanceCents).toBe(2000);
  });
});
