import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { pdfText } from '../helpers/pdf-text';
import { expectContractError } from '../security/security-fixtures';
import { createPerson, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';

const aud = (c: number) => `$${(c / 100).toFixed(2)}`;

/**
 * Account credit pays at checkout (issue 52, decision 0111): taken in the checkout's transaction,
 * the card paying the rest; all of it: confirmed at once, no card. Money goes back where it came
 * from: an unpaid checkout ended gives the credit back; a refund sends the credit part to credit and
 * the card part to the card. Against the Stripe sandbox.
 */
describe('paying with account credit', () => {
  let w: StaffDay;
  let sandbox: StripeSandbox;
  let price: number;
  let next = 0;

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    w = await staffDay({ ...s.env, LOG_LEVEL: 'error' });
    await listenForWebhooks(w.t.app, sandbox);
    price = Number(
      (await w.t.db.execute(sql`select price_cents from packages where id = ${w.classic}::uuid`)).rows[0]!.price_cents,
    );
  });
  afterAll(async () => {
    await w?.t.close();
    await sandbox?.stop();
  });

  /** A family with `cents` of credit, as a cancellation to credit would leave it. */
  async function familyWithCredit(cents: number) {
    const family = await createPerson(w.t.db, false, { firstName: 'Rudy', lastName: `Spender${next}` });
    await w.t.db.execute(sql`insert into credit_entries (user_id, cents, reason, expires_at)
      values (${family.id}::uuid, ${cents}, 'cancel_refund', now() + interval '3 years')`);
    return family;
  }
  const balance = async (family: Person) => {
    const res = await w.call('GET', '/user/credit', family);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().balanceCents as number;
  };
  async function cartWithCredit(family: Person, useCredit = true) {
    const held = await w.call('POST', '/bookings/reservation', family, { slotId: w.sessions[next++]!.id });
    expect(held.statusCode, held.body).toBe(201);
    const cart = await w.call('POST', '/cart', family, {
      reservationId: held.json().id,
      amount: price,
      packages: [{ id: w.classic }],
      useCredit,
    });
    expect(cart.statusCode, cart.body).toBe(201);
    return { holdId: held.json().id as string, cart: cart.json() };
  }
  const checkout = (family: Person, holdId: string, cartId: string) =>
    w.call('POST', `/bookings/reservation/${holdId}/checkoutOrder`, family, { cartId });
  const bookingStatus = async (family: Person, id: string) =>
    (await w.call('GET', `/bookings/${id}`, family)).json().status as string;

  it('credit covering the cart confirms it at once, no card, and the tax invoice says how it was paid', async () => {
    const family = await familyWithCredit(price + 1000);
    const { holdId, cart } = await cartWithCredit(family);
    expect(cart).toMatchObject({ payments: [{ kind: 'credit', cents: price }], dueCents: 0, amountCents: price });

    const res = await checkout(family, holdId, cart.id);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ client_secret: null, amountCents: 0 });
    expect(await bookingStatus(family, res.json().bookingId)).toBe('completed');
    expect(await balance(family)).toBe(1000);

    const pdf = await w.call(
      'GET',
      `/orders/${res.json().bookingId}/orders/${res.json().orderId}/payment-receipt`,
      family,
    );
    expect(pdf.statusCode, pdf.body).toBe(200);
    const text = (await pdfText(pdf.rawPayload)).replace(/\s+/g, ' ');
    expect(text).toContain(`Total (AUD) ${aud(price)}`);
    expect(text).toContain(`Account credit used ${aud(price)}`);
    expect(text).toContain('Paid with account credit');
  });

  it('credit pays part, the card the rest; cancelling sends each part back where it came from', async () => {
    const family = await familyWithCredit(1000);
    const { holdId, cart } = await cartWithCredit(family);
    expect(cart).toMatchObject({ payments: [{ kind: 'credit', cents: 1000 }], dueCents: price - 1000 });
    const res = await checkout(family, holdId, cart.id);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().amountCents).toBe(price - 1000);
    const intent = await w.t.app.stripe!.paymentIntents.retrieve(res.json().client_secret.split('_secret_')[0]);
    expect(intent.amount).toBe(price - 1000);
    expect(await balance(family)).toBe(0);
    expect((await payWithCard(sandbox, res.json().client_secret, CARDS.success)).status).toBe('succeeded');
    await sandbox.webhooksIdle();
    const bookingId = res.json().bookingId as string;
    await expect.poll(() => bookingStatus(family, bookingId)).toBe('completed');

    const cancelled = await w.call('POST', `/bookings/${bookingId}/cancel`, family, {});
    expect(cancelled.statusCode, cancelled.body).toBe(200);
    expect(cancelled.json().refund).toMatchObject({ refundTo: 'card', amountCents: price - 1000 });
    expect(await balance(family)).toBe(1000);
    const refunds = await w.t.db.execute(
      sql`select method, amount_cents, status from refunds where booking_id = ${bookingId}::uuid order by method`,
    );
    expect(refunds.rows).toEqual([
      { method: 'card', amount_cents: price - 1000, status: 'succeeded' },
      { method: 'credit', amount_cents: 1000, status: 'succeeded' },
    ]);
    const order = await w.call('GET', `/orders/${bookingId}/orders/${res.json().orderId}`, family);
    expect(order.json()).toMatchObject({ refundedCents: price });
  });

  it('an unpaid checkout cancelled gives its credit back, once', async () => {
    const family = await familyWithCredit(1000);
    const { holdId, cart } = await cartWithCredit(family);
    const res = await checkout(family, holdId, cart.id);
    expect(res.statusCode, res.body).toBe(201);
    expect(await balance(family)).toBe(0);
    // Sent twice: the second finds it cancelled and gives nothing more back.
    expect((await w.call('POST', `/bookings/${res.json().bookingId}/cancel`, family, {})).statusCode).toBe(200);
    expect((await w.call('POST', `/bookings/${res.json().bookingId}/cancel`, family, {})).statusCode).toBe(409);
    expect(await balance(family)).toBe(1000);
  });

  it('a checkout sent again spends the credit once; credit gone since the cart was priced is refused', async () => {
    const family = await familyWithCredit(price);
    const first = await cartWithCredit(family);
    const answers = await Promise.all([1, 2, 3].map(() => checkout(family, first.holdId, first.cart.id)));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201]);
    expect(new Set(answers.map((a) => a.json().orderId)).size).toBe(1);
    expect(await balance(family)).toBe(0);

    const other = await familyWithCredit(1000);
    const stale = await cartWithCredit(other);
    await w.t.db.execute(sql`insert into credit_entries (user_id, cents, reason)
      values (${other.id}::uuid, -600, 'refunded_to_card')`);
    await expectContractError(await checkout(other, stale.holdId, stale.cart.id), 409, 'CART_INVALID');
    expect(await balance(other)).toBe(400);
    const orders = await w.t.db.execute(sql`select count(*)::int as n from orders where user_id = ${other.id}::uuid`);
    expect(orders.rows[0]!.n).toBe(0);
  });

  it('without useCredit, or with no credit, the card pays it all', async () => {
    const family = await familyWithCredit(1000);
    const { cart } = await cartWithCredit(family, false);
    expect(cart).toMatchObject({ payments: [], dueCents: price });
    const none = await createPerson(w.t.db, false);
    const { cart: empty } = await cartWithCredit(none);
    expect(empty).toMatchObject({ payments: [], dueCents: price });
    await expectContractError(
      await w.call('POST', '/cart', family, {
        reservationId: '00000000-0000-4000-8000-000000000000',
        amount: price,
        packages: [{ id: w.classic }],
        useCredit: 'yes',
      }),
      400,
      'VALIDATION_FAILED',
    );
  });
});
