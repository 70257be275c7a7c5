import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../helpers/pdf-text';
import { expectContractError } from '../security/security-fixtures';
import { createPerson, type Person, type StaffDay } from '../staff/staff-fixtures';
import { voucherDay, type VoucherDay } from './voucher-fixtures';

/**
 * Gift vouchers (issue 52, decision 0112), against the Stripe sandbox: spent over several bookings, given back their
 * part by a lapse or a refund, refused when they cannot pay; found and cancelled by support; the liability report.
 * Bought and claimed: gift-vouchers.test.ts.
 */
describe('gift vouchers', () => {
  let d: VoucherDay;
  let w: StaffDay;
  let sandbox: StripeSandbox;
  let price: number;

  beforeAll(async () => {
    d = await voucherDay();
    ({ w, sandbox, price } = d);
  });
  afterAll(async () => d?.close());

  const family = (lastName: string) => d.family(lastName);
  const bought = (buyer: Person, amountCents: number, extra: object = {}) => d.bought(buyer, amountCents, extra);
  const cart = (who: Person, body: object) => d.cart(who, body);
  const checkout = (who: Person, holdId: string, cartId: string) => d.checkout(who, holdId, cartId);
  const checkoutAndPay = (who: Person, holdId: string, cartId: string) => d.checkoutAndPay(who, holdId, cartId);
  const lookUp = (who: Person, code: string) => d.lookUp(who, code);

  it('pays several bookings until spent, confirms at once when it covers all, and gives back a lapse', async () => {
    const buyer = await family('Spender');
    // A voucher over the price by $20 or more (vouchers are multiples of $5).
    const value = Math.ceil((price + 2000) / 500) * 500;
    const rest = value - price;
    const v = await bought(buyer, value);
    // All of one booking: no card, confirmed now.
    const first = await cart(buyer, { vouchers: [v.code] });
    expect(first.res.statusCode, first.res.body).toBe(201);
    expect(first.res.json()).toMatchObject({
      payments: [{ kind: 'voucher', code: v.code, cents: price }],
      dueCents: 0,
    });
    const paid = await checkout(buyer, first.holdId, first.res.json().id);
    expect(paid.statusCode, paid.body).toBe(201);
    expect(paid.json()).toMatchObject({ client_secret: null, amountCents: 0 });
    expect((await w.call('GET', `/bookings/${paid.json().bookingId}`, buyer)).json().status).toBe('completed');
    expect((await lookUp(buyer, v.code)).balanceCents).toBe(rest);
    const invoice = await pdfText(
      (await w.call('GET', `/orders/${paid.json().bookingId}/orders/${paid.json().orderId}/payment-receipt`, buyer))
        .rawPayload,
    );
    expect(invoice).toContain('Gift voucher used');
    expect(invoice).toContain('Paid with a gift voucher');

    // The rest pays part of the next; the card the remainder. Cancelled unpaid, the voucher has it back.
    const second = await cart(buyer, { vouchers: [v.code] });
    expect(second.res.json()).toMatchObject({ payments: [{ kind: 'voucher', cents: rest }], dueCents: price - rest });
    const open = await checkout(buyer, second.holdId, second.res.json().id);
    expect(open.json()).toMatchObject({ amountCents: price - rest });
    expect(open.json().client_secret).toBeTruthy();
    expect((await lookUp(buyer, v.code)).status).toBe('spent');
    const cancelled = await w.call('POST', `/bookings/${open.json().bookingId}/cancel`, buyer, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await lookUp(buyer, v.code)).balanceCents).toBe(rest);
  });

  it('a refund puts the voucher part back on the voucher and the card part on the card', async () => {
    const buyer = await family('Refunded');
    const v = await bought(buyer, 2000);
    const c = await cart(buyer, { vouchers: [v.code] });
    const open = await checkoutAndPay(buyer, c.holdId, c.res.json().id);
    const cancelled = await w.call('POST', `/bookings/${open.json().bookingId}/cancel`, buyer, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect((await lookUp(buyer, v.code)).balanceCents).toBe(2000);
    const refunds = await w.t.db.execute(
      sql`select method, amount_cents from refunds where booking_id = ${open.json().bookingId}::uuid order by method`,
    );
    expect(refunds.rows).toEqual([
      { method: 'card', amount_cents: price - 2000 },
      { method: 'voucher', amount_cents: 2000 },
    ]);
  });

  it('refuses a voucher that cannot pay: unknown, spent, or claimed by another', async () => {
    const buyer = await family('Refusals');
    const unknown = await cart(buyer, { vouchers: ['ABCD-EFGH-JKMN'] });
    expectContractError(unknown.res, 409, 'VOUCHER_INVALID');
    const v = await bought(buyer, 2000);
    await w.call('POST', `/vouchers/${v.code}/claim`, buyer);
    const other = await family('NotMine');
    expectContractError((await cart(other, { vouchers: [v.code] })).res, 409, 'VOUCHER_INVALID');
  });
  it("support finds a voucher by code or recipient, with its history, and cancels it to the buyer's card", async () => {
    const desk = await createPerson(
      w.t.db,
      true,
      { firstName: 'Sam', lastName: 'Desk' },
      { role: 'support', mfaEnrolled: true },
    );
    const buyer = await family('Cancelled');
    const v = await bought(buyer, 4000, { recipientEmail: 'cancel-me@kringle.test' });
    const byCode = (await w.call('GET', `/staff/vouchers?q=${v.code.toLowerCase()}`, desk)).json().items;
    expect(byCode).toHaveLength(1);
    expect(byCode[0]).toMatchObject({ id: v.id, buyerEmail: buyer.email, balanceCents: 4000, status: 'active' });
    expect(byCode[0].code).toBe(`••••-••••-${v.code.slice(-4)}`);
    expect(byCode[0].history).toEqual([expect.objectContaining({ reason: 'sold', cents: 4000 })]);
    const byRecipient = (await w.call('GET', '/staff/vouchers?q=cancel-me@', desk)).json().items;
    expect(byRecipient.map((x: { id: string }) => x.id)).toEqual([v.id]);
    expectContractError(await w.call('GET', '/staff/vouchers?q=ab', desk), 400, 'VALIDATION_FAILED');
    expect((await w.call('GET', '/staff/vouchers?q=cancel-me@', buyer)).statusCode).toBe(403);
    expectContractError(await w.call('POST', `/staff/vouchers/${v.id}/cancel`, desk, {}), 400, 'VALIDATION_FAILED');

    const cancel = await w.call('POST', `/staff/vouchers/${v.id}/cancel`, desk, { reason: 'Bought twice by mistake' });
    expect(cancel.statusCode, cancel.body).toBe(200);
    expect(cancel.json()).toMatchObject({
      status: 'cancelled',
      balanceCents: 0,
      refund: { cents: 4000, status: 'sent' },
    });
    // Sent again: the same answer, one refund at Stripe.
    expect((await w.call('POST', `/staff/vouchers/${v.id}/cancel`, desk, { reason: 'Again' })).json().refund).toEqual({
      cents: 4000,
      status: 'sent',
    });
    const intent = (await w.t.db.execute(sql`select payment_intent_id from vouchers where id = ${v.id}::uuid`))
      .rows[0]!;
    const refunded = sandbox
      .events('charge.refunded')
      .filter((e) => (e.data.object as { payment_intent?: string }).payment_intent === intent.payment_intent_id);
    expect(refunded.map((e) => (e.data.object as { amount_refunded: number }).amount_refunded)).toEqual([4000]);
    expect((await lookUp(buyer, v.code)).status).toBe('cancelled');
    expectContractError((await cart(buyer, { vouchers: [v.code] })).res, 409, 'VOUCHER_INVALID');
    const audit = await w.t.db.execute(
      sql`select action, reason from audit_entries where after->>'voucherId' = ${v.id} order by at, action`,
    );
    expect(audit.rows.map((r) => r.action).sort()).toEqual(['voucher.cancelled', 'voucher.sold']);
  });

  it("support's partial refund gives the voucher its part first, the card only the rest", async () => {
    const desk = await createPerson(
      w.t.db,
      true,
      { firstName: 'Pat', lastName: 'Desk' },
      { role: 'support', mfaEnrolled: true },
    );
    const buyer = await family('PartRefund');
    const v = await bought(buyer, 2000);
    const c = await cart(buyer, { vouchers: [v.code] });
    const open = await checkoutAndPay(buyer, c.holdId, c.res.json().id);
    const res = await w.call('POST', `/staff/orders/${open.json().orderId}/refunds`, desk, {
      amountCents: 2500,
      reason: 'Photos came out dark',
    });
    expect(res.statusCode, res.body).toBe(201);
    const refunds = await w.t.db.execute(
      sql`select method, amount_cents, status from refunds where order_id = ${open.json().orderId}::uuid
        order by method`,
    );
    expect(refunds.rows).toEqual([
      { method: 'card', amount_cents: 500, status: 'succeeded' },
      { method: 'voucher', amount_cents: 2000, status: 'succeeded' },
    ]);
    expect((await lookUp(buyer, v.code)).balanceCents).toBe(2000);
  });

  it('the liability report adds up: sold = redeemed + cancelled + outstanding, as the families see it', async () => {
    const manager = await createPerson(
      w.t.db,
      true,
      { firstName: 'Mo', lastName: 'Manager' },
      { role: 'manager', mfaEnrolled: true },
    );
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(w.clock.now());
    const res = await w.call('GET', `/staff/reports/vouchers?from=${today}&to=${today}`, manager);
    expect(res.statusCode, res.body).toBe(200);
    const { items, totals } = res.json();
    let soldCents = 0;
    let outstanding = 0;
    for (const { id, buyer } of d.sold) {
      const v = (await w.call('GET', '/vouchers', buyer)).json().items.find((x: { id: string }) => x.id === id);
      soldCents += v.amountCents;
      if (v.status === 'active' || v.status === 'spent') outstanding += v.balanceCents;
    }
    expect(totals).toMatchObject({ soldCount: d.sold.length, soldCents, cancelledCents: 4000, expiredCents: 0 });
    expect(totals.outstandingCents).toBe(outstanding);
    expect(totals.redeemedCents).toBe(soldCents - totals.cancelledCents - outstanding);
    expect(items).toEqual([
      { date: today, ...Object.fromEntries(Object.entries(totals).filter(([k]) => k !== 'outstandingCents')) },
    ]);
    const csv = await w.call('GET', `/staff/reports/vouchers.csv?from=${today}&to=${today}`, manager);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    expect(csv.body).toContain(`"Outstanding now (AUD)","${(outstanding / 100).toFixed(2)}"`);
    expect(
      (await w.call('GET', `/staff/reports/vouchers?from=${today}&to=${today}`, await family('Nosy'))).statusCode,
    ).toBe(403);
  });
});
