import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { gstOf } from '@kringle/contracts/money';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContractError } from '../security/security-fixtures';
import { createPerson, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { pdfText } from '../helpers/pdf-text';

const CHARITY = "Starlight Children's Foundation";
const DAY = 86_400_000;
const aud = (c: number) => `$${(c / 100).toFixed(2)}`;

/**
 * The charity line (issue 52, API.md "Gift vouchers, promo codes, credit, donations", decision 0109):
 * a cart's donation is paid by the card after the goods, outside GST; the tax invoice shows it as its
 * own line; a full refund gives it back; the sales report counts the goods and the donations report
 * (and its CSV, for the charity) the donations. Against the Stripe sandbox.
 */
describe('donations', () => {
  let w: StaffDay;
  let sandbox: StripeSandbox;
  let manager: Person;
  let price: number;
  let next = 0;

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    w = await staffDay({ ...s.env, LOG_LEVEL: 'error', CHARITY_NAME: CHARITY });
    await listenForWebhooks(w.t.app, sandbox);
    manager = await createPerson(
      w.t.db,
      true,
      { firstName: 'Mo', lastName: 'Manager' },
      { role: 'manager', mfaEnrolled: true },
    );
    price = Number(
      (await w.t.db.execute(sql`select price_cents from packages where id = ${w.classic}::uuid`)).rows[0]!.price_cents,
    );
  });
  afterAll(async () => {
    await w?.t.close();
    await sandbox?.stop();
  });

  const newFamily = () => createPerson(w.t.db, false, { firstName: 'Holly', lastName: `Giving${next}` });
  const hold = async (family: Person) => {
    const held = await w.call('POST', '/bookings/reservation', family, { slotId: w.sessions[next++]!.id });
    expect(held.statusCode, held.body).toBe(201);
    return held.json().id as string;
  };
  const cart = (family: Person, holdId: string, extra: Record<string, unknown>) =>
    w.call('POST', '/cart', family, { reservationId: holdId, amount: price, packages: [{ id: w.classic }], ...extra });
  const carts = async () => (await w.t.db.execute(sql`select count(*)::int as n from carts`)).rows[0]!.n;

  /** A paid booking with `donationCents`, its webhook handled. */
  async function paidWith(donationCents: number) {
    const family = await newFamily();
    const holdId = await hold(family);
    const priced = await cart(family, holdId, { donationCents });
    expect(priced.statusCode, priced.body).toBe(201);
    const res = await w.call('POST', `/bookings/reservation/${holdId}/checkoutOrder`, family, {
      cartId: priced.json().id,
    });
    expect(res.statusCode, res.body).toBe(201);
    expect((await payWithCard(sandbox, res.json().client_secret, CARDS.success)).status).toBe('succeeded');
    await sandbox.webhooksIdle();
    return { family, ...(res.json() as { bookingId: string; orderId: string; amountCents: number }) };
  }
  const receipt = async (family: Person, bookingId: string, orderId: string, kind: string) => {
    const res = await w.call('GET', `/orders/${bookingId}/orders/${orderId}/${kind}`, family);
    expect(res.statusCode, res.body).toBe(200);
    return pdfText(res.rawPayload);
  };
  const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Australia/Sydney' }).format(w.clock.now());
  const range = () => {
    const from = new Date(Date.parse(today()) - DAY).toISOString().slice(0, 10);
    return `from=${from}&to=${new Date(Date.parse(today()) + DAY).toISOString().slice(0, 10)}&locationId=${w.sydney}`;
  };

  it('GET /common/charity names the charity and the amounts the Overview suggests', async () => {
    const res = await w.call('GET', '/common/charity', null);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ name: CHARITY, suggestedCents: [200, 500, 1000], maxCents: 10_000 });
  });

  it('the cart adds the donation to what the card pays, not to the GST; a bad amount changes nothing', async () => {
    const family = await newFamily();
    const holdId = await hold(family);
    const before = await carts();
    for (const bad of [-1, 10_001, 2.5, '500'])
      expectContractError(await cart(family, holdId, { donationCents: bad }), 400, 'VALIDATION_FAILED');
    expect(await carts()).toBe(before);
    const res = await cart(family, holdId, { donationCents: 500 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({
      amountCents: price,
      donationCents: 500,
      dueCents: price + 500,
      gstCents: gstOf(price),
    });
  });

  it('the card pays goods and donation; the invoice shows the donation apart, without GST', async () => {
    const paid = await paidWith(1000);
    expect(paid.amountCents).toBe(price + 1000);
    const intent = await w.t.app.stripe!.paymentIntents.retrieve(
      (await w.t.db.execute(sql`select payment_intent_id from orders where id = ${paid.orderId}::uuid`)).rows[0]!
        .payment_intent_id as string,
    );
    expect(intent.amount).toBe(price + 1000);
    const text = await receipt(paid.family, paid.bookingId, paid.orderId, 'payment-receipt');
    // On one line, the amount beside it.
    expect(text).toMatch(new RegExp(`Donation to Starlight Children's Foundation \\(no GST\\)\\s+\\${aud(1000)}`));
    expect(text).toMatch(new RegExp(`Total \\(AUD\\)\\s+\\${aud(price + 1000)}`));
    expect(text).toMatch(new RegExp(`GST included\\s+\\${aud(gstOf(price))}`));
    expect(text).toContain('is not a sale and has no GST');
    // The booking answer names it, so the confirmation and My Bookings show it apart from the goods too.
    const booking = (await w.call('GET', `/bookings/${paid.bookingId}`, paid.family)).json();
    expect(booking).toMatchObject({ amountCents: price + 1000, donationCents: 1000, donationTo: CHARITY });
  });

  it('a full refund gives the donation back; the reports keep goods and donations apart, as the PDFs do', async () => {
    const report = async () =>
      (await w.call('GET', `/staff/reports/donations?${range()}`, manager)).json() as {
        totals: { count: number; donatedCents: number; refundedCents: number; netCents: number };
      };
    const sales = async () =>
      (await w.call('GET', `/staff/reports/sales?${range()}`, manager)).json().totals as {
        grossCents: number;
        gstCents: number;
        refundsCents: number;
        refundsGstCents: number;
      };
    const [donationsBefore, salesBefore] = [await report(), await sales()];
    const paid = await paidWith(500);
    const cancelled = await w.call('POST', `/bookings/${paid.bookingId}/cancel`, paid.family, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    await sandbox.webhooksIdle();
    const refunded = (await w.t.db.execute(sql`select refunded_cents from orders where id = ${paid.orderId}::uuid`))
      .rows[0]!.refunded_cents;
    expect(refunded).toBe(price + 500);
    const text = await receipt(paid.family, paid.bookingId, paid.orderId, 'refund-receipt');
    expect(text).toMatch(new RegExp(`Of which the donation \\(no GST\\)\\s+\\${aud(500)}`));
    expect(text).toMatch(new RegExp(`GST refunded\\s+\\${aud(gstOf(price))}`));

    const [donations, salesNow] = [await report(), await sales()];
    expect(donations.totals.count - donationsBefore.totals.count).toBe(1);
    expect(donations.totals.donatedCents - donationsBefore.totals.donatedCents).toBe(500);
    expect(donations.totals.refundedCents - donationsBefore.totals.refundedCents).toBe(500);
    expect(donations.totals.netCents - donationsBefore.totals.netCents).toBe(0);
    // The sales report counts the invoice's goods and GST, and the refund receipt's.
    expect(salesNow.grossCents - salesBefore.grossCents).toBe(price);
    expect(salesNow.gstCents - salesBefore.gstCents).toBe(gstOf(price));
    expect(salesNow.refundsCents - salesBefore.refundsCents).toBe(price);
    expect(salesNow.refundsGstCents - salesBefore.refundsGstCents).toBe(gstOf(price));
  });

  it('a partial refund takes the goods first: the donation stays with the charity', async () => {
    const paid = await paidWith(200);
    // The facts as a support refund of part of the goods leaves them (the view is what the report reads).
    await w.t.db.execute(sql`insert into refunds (order_id, booking_id, amount_cents, reason, status)
      values (${paid.orderId}::uuid, ${paid.bookingId}::uuid, 300, 'support_refund', 'succeeded')`);
    const facts = (
      await w.t.db.execute(sql`select refunds_cents, donation_cents, donation_refunds_cents
        from sale_facts where order_id = ${paid.orderId}::uuid`)
    ).rows[0]!;
    expect(facts).toEqual({ refunds_cents: 300, donation_cents: 200, donation_refunds_cents: 0 });
  });

  it('the CSV for the charity names it and adds up; families and elves may not read it', async () => {
    await paidWith(1500);
    const res = await w.call('GET', `/staff/reports/donations.csv?${range()}`, manager);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body.trim().split(/\r?\n/);
    expect(lines[0]).toContain(CHARITY);
    expect(lines[1]).toBe('"Date","Donations","Donated (AUD)","Refunded (AUD)","Net (AUD)"');
    const json = (await w.call('GET', `/staff/reports/donations?${range()}`, manager)).json();
    const t = json.totals;
    const cells = [t.count, ...[t.donatedCents, t.refundedCents, t.netCents].map((c) => aud(c).slice(1))];
    expect(lines.at(-1)).toBe(['Total', ...cells].map((c) => `"${c}"`).join(','));
    expect(json.charityName).toBe(CHARITY);
    // Named as the orders recorded it, not as the setting says today (an operator changing charity mid-season).
    const config = w.t.app.config as { CHARITY_NAME?: string };
    config.CHARITY_NAME = 'Another Foundation';
    try {
      expect((await w.call('GET', `/staff/reports/donations?${range()}`, manager)).json().charityName).toBe(CHARITY);
    } finally {
      config.CHARITY_NAME = CHARITY;
    }
    expect((await w.call('GET', `/staff/reports/donations?${range()}`, w.elf)).statusCode).toBe(403);
    expect((await w.call('GET', `/staff/reports/donations?${range()}`, await newFamily())).statusCode).toBe(403);
  });

  it('with no charity named, a donation is refused, at the cart and at a checkout priced before', async () => {
    const family = await newFamily();
    const holdId = await hold(family);
    const priced = await cart(family, holdId, { donationCents: 500 });
    expect(priced.statusCode, priced.body).toBe(201);
    // The configuration is read per request; a restart without CHARITY_NAME is this.
    const config = w.t.app.config as { CHARITY_NAME?: string };
    config.CHARITY_NAME = undefined;
    try {
      expectContractError(await cart(family, holdId, { donationCents: 500 }), 400, 'VALIDATION_FAILED');
      const res = await w.call('POST', `/bookings/reservation/${holdId}/checkoutOrder`, family, {
        cartId: priced.json().id,
      });
      expectContractError(res, 409, 'CART_INVALID');
      const zero = await cart(family, holdId, {});
      expect(zero.statusCode, zero.body).toBe(201);
      expect(zero.json()).toMatchObject({ donationCents: 0, dueCents: price });
    } finally {
      config.CHARITY_NAME = CHARITY;
    }
  });
});
