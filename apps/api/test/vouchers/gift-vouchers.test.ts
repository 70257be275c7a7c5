import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pdfText } from '../helpers/pdf-text';
import { pdfQrText } from '../helpers/pdf-qr';
import { expectContractError } from '../security/security-fixtures';
import { createPerson, type Person, type StaffDay } from '../staff/staff-fixtures';
import { until, voucherDay, type VoucherDay } from './voucher-fixtures';

/**
 * Gift vouchers (issue 52, decision 0112), against the Stripe sandbox: bought by card, live once the
 * webhook says paid, e-mailed on their day, claimed into one account, spent over several bookings,
 * given back their part by a lapse or a refund.
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

  it('refuses a bad purchase with the contract error and writes nothing', async () => {
    const buyer = await family('Refused');
    for (const body of [
      { amountCents: 1500, recipientName: 'Ruby' },
      { amountCents: 2250, recipientName: 'Ruby' },
      { amountCents: 60000, recipientName: 'Ruby' },
      { amountCents: 3000, recipientName: '' },
      { amountCents: 3000, recipientName: 'Ruby', message: 'x'.repeat(201) },
      { amountCents: 3000, recipientName: 'Ruby', sendOn: '2020-01-01' },
      { amountCents: 3000, recipientName: 'Ruby', recipientEmail: 'not an address' },
    ]) {
      const res = await w.call('POST', '/vouchers', buyer, body);
      expectContractError(res, 400, 'VALIDATION_FAILED');
    }
    const n = await w.t.db.execute(
      sql`select count(*)::int as n from vouchers where buyer_user_id = ${buyer.id}::uuid`,
    );
    expect(n.rows[0]!.n).toBe(0);
  });

  it('is live once paid: a 3-year expiry, its e-mail queued with the certificate, only a hash stored', async () => {
    const buyer = await family('Giver');
    const v = await bought(buyer, 5000, { recipientEmail: 'ruby@kringle.test', message: 'Love, Nana' });
    expect(v).toMatchObject({ amountCents: 5000, balanceCents: 5000, bought: true, recipientName: 'Ruby' });
    expect(v.code).toMatch(/^[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}$/);
    const years = (new Date(v.expiresAt).getTime() - Date.now()) / (365.25 * 86_400_000);
    expect(years).toBeGreaterThan(2.99);
    expect(years).toBeLessThan(3.01);

    const row = (await w.t.db.execute(sql`select * from vouchers where id = ${v.id}::uuid`)).rows[0]!;
    expect(JSON.stringify(row)).not.toContain(v.code.replaceAll('-', ''));
    const mail = await until(
      async () => (await w.t.db.execute(sql`select * from mail_outbox where to_address = 'ruby@kringle.test'`)).rows[0],
      (m) => Boolean(m),
    );
    expect(mail!.subject).toBe('Nana gave you a visit to Santa');
    expect(mail!.text).toContain(v.code);
    expect((mail!.attachments as { filename: string }[])[0]!.filename).toBe('santa-gift-voucher.pdf');

    const certificate = await w.call('GET', `/vouchers/${v.id}/certificate.pdf`, buyer);
    expect(certificate.statusCode).toBe(200);
    const text = await pdfText(certificate.rawPayload);
    expect(text).toContain(v.code);
    expect(text).toContain('$50.00');
    expect(text).toContain('For Ruby');
    // The QR leads to the page that adds it, the code in the fragment (never sent to a server).
    expect(pdfQrText(certificate.rawPayload)).toMatch(new RegExp(`/gift/redeem#${v.code}$`));
    const receipt = await w.call('GET', `/vouchers/${v.id}/receipt.pdf`, buyer);
    const receiptText = await pdfText(receipt.rawPayload);
    expect(receiptText).toContain('Receipt');
    expect(receiptText).not.toContain('Tax invoice');
    expect(receiptText).not.toContain(v.code);
    // Another family gets nothing of it.
    const stranger = await family('Stranger');
    expectContractError(await w.call('GET', `/vouchers/${v.id}/certificate.pdf`, stranger), 404, 'NOT_FOUND');
    expectContractError(await w.call('GET', `/vouchers/${v.id}/receipt.pdf`, stranger), 404, 'NOT_FOUND');
    // The buyer's data export has it, with its moves, and never the code.
    const exported = (await w.call('GET', '/user/export', buyer)).json();
    expect(exported.vouchers).toEqual([
      expect.objectContaining({
        id: v.id,
        bought: true,
        recipientEmail: 'ruby@kringle.test',
        message: 'Love, Nana',
        moves: [expect.objectContaining({ cents: 5000, reason: 'sold' })],
      }),
    ]);
    expect(JSON.stringify(exported)).not.toContain(v.code.replaceAll('-', ''));
  });

  it('a later send day holds its e-mail back until 09:00 that day in Sydney', async () => {
    const buyer = await family('Planner');
    const sendOn = new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(
      new Date(Date.now() + 10 * 86_400_000),
    );
    const v = await bought(buyer, 3000, { recipientEmail: 'later@kringle.test', sendOn });
    const mail = await until(
      async () =>
        (await w.t.db.execute(sql`select next_attempt_at from mail_outbox where to_address = 'later@kringle.test'`))
          .rows[0],
      (m) => Boolean(m),
    );
    expect(new Date(mail!.next_attempt_at as string).getTime()).toBeGreaterThan(Date.now() + 8 * 86_400_000);
    expect(v.sentAt).toBeNull();
  });

  it('is claimed into one account: another sees a 404 and its claim is refused', async () => {
    const buyer = await family('Claimer');
    const v = await bought(buyer, 3000);
    const recipient = await family('Recipient');
    const other = await family('Other');
    const seen = await lookUp(recipient, v.code.toLowerCase().replaceAll('-', ' '));
    expect(seen).toMatchObject({ status: 'active', balanceCents: 3000, bought: false, claimed: false });
    expect(seen.code).toMatch(/^••••-••••-/);
    const claimed = await w.call('POST', `/vouchers/${v.code}/claim`, recipient);
    expect(claimed.statusCode, claimed.body).toBe(200);
    expect(claimed.json()).toMatchObject({ claimed: true, code: v.code });
    expect((await w.call('POST', `/vouchers/${v.code}/claim`, recipient)).statusCode).toBe(200);
    expectContractError(await w.call('POST', `/vouchers/${v.code}/claim`, other), 409, 'VOUCHER_CLAIMED');
    expectContractError(await w.call('GET', `/vouchers/${v.code}`, other), 404, 'NOT_FOUND');
    const list = (await w.call('GET', '/vouchers', recipient)).json().items;
    expect(list.map((x: { id: string }) => x.id)).toEqual([v.id]);
  });

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

  it('limits wrong codes to 10 an hour per account and per address', async () => {
    // An hour has passed for the misses of the tests above (all from this one address).
    await w.t.db.execute(sql`delete from voucher_code_misses`);
    const guesser = await family('Guesser');
    for (let i = 0; i < 10; i++)
      expectContractError(await w.call('GET', `/vouchers/ZZZZ-ZZZZ-ZZZ${i + 2}`, guesser), 404, 'NOT_FOUND');
    expectContractError(await w.call('GET', '/vouchers/ZZZZ-ZZZZ-ZZZZ', guesser), 429, 'RATE_LIMITED');
    // Another account from the same address is refused too; the table keeps only hashes of the address.
    expectContractError(
      await w.call('GET', '/vouchers/ZZZZ-ZZZZ-ZZZZ', await family('Accomplice')),
      429,
      'RATE_LIMITED',
    );
    const keys = (await w.t.db.execute(sql`select distinct key from voucher_code_misses`)).rows.map((r) => r.key);
    expect(keys.filter((k) => String(k).startsWith('ip:'))).toEqual([expect.stringMatching(/^ip:[0-9a-f]{64}$/)]);
  });
});
