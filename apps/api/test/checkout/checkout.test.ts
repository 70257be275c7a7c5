import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packages } from '../../src/db/schema/catalogue';
import type { ManualClock } from '../../src/lib/clock';
import { settleLapsedCheckouts } from '../../src/modules/payments/unpaid-checkouts.service';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { CARDS, payWithCard } from '../helpers/payments';
import type { TestApp } from '../helpers/test-app';
import { checkoutWorld, type CheckoutWorld } from './checkout-fixtures';

const MINUTE = 60_000;

describe('cart, checkout and card payment', () => {
  let w: CheckoutWorld;
  let t: TestApp;
  let sandbox: StripeSandbox;
  let clock: ManualClock;
  let catalogue: CheckoutWorld['catalogue'];

  beforeAll(async () => {
    w = await checkoutWorld();
    ({ t, sandbox, clock, catalogue } = w);
  });
  afterAll(async () => w?.close());

  const post = (url: string, who: TestCustomer, payload?: object) => w.post(url, who, payload);
  const holdNew = (who: TestCustomer, slotId?: string) => w.holdNew(who, slotId);
  const basket = () => w.basket();
  const checkout = (who: TestCustomer) => w.checkout(who);
  const bookingRow = (id: string) => w.bookingRow(id);
  const orderRow = (id: string) => w.orderRow(id);
  const slotRow = (id: string) => w.slotRow(id);
  const mailsTo = (email: string) => w.mailsTo(email);

  it(
    'an unpaid checkout follows the family: listed, and holding its session again answers that same reservation ' +
      '(issue 37 item 1)',
    async () => {
      const who = await createCustomer(t.db, t.app.idTokens);
      const { hold, result } = await checkout(who);
      const listed = (await t.app.inject({ url: '/api/v1/bookings/reservation', headers: who.headers })).json();
      expect(listed.items).toEqual([
        expect.objectContaining({ id: hold.id, status: 'checked_out', bookingId: result.bookingId }),
      ]);
      const again = await post('/api/v1/bookings/reservation', who, { slotId: hold.slotId });
      expect(again.statusCode).toBe(200);
      expect(again.json()).toMatchObject({ id: hold.id, bookingId: result.bookingId });
    },
  );

  it('prices the cart itself, with GST, and refuses a tampered amount', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const hold = await holdNew(who);
    const b = basket();
    const ok = await post('/api/v1/cart', who, { reservationId: hold.id, ...b });
    expect(ok.json()).toMatchObject({
      amountCents: b.amount,
      gstCents: Math.round(b.amount / 11),
      currency: 'AUD',
      reservationId: hold.id,
    });
    expect(ok.json().items).toHaveLength(3);
    const tampered = await post('/api/v1/cart', who, { reservationId: hold.id, ...b, amount: 100 });
    expect(tampered.statusCode).toBe(409);
    expect(tampered.json()).toMatchObject({ code: 'PRICE_MISMATCH', error: expect.stringContaining('$') });
  });

  it('enforces the quantity rules', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const hold = await holdNew(who);
    const [a] = catalogue.standardPackages;
    const cart = (body: object) => post('/api/v1/cart', who, { reservationId: hold.id, amount: 0, ...body });
    expect((await cart({ packages: [] })).json().code).toBe('VALIDATION_FAILED');
    expect((await cart({ packages: [{ id: a!.id, quantity: 4 }] })).json().code).toBe('VALIDATION_FAILED');
    expect(
      (
        await cart({
          packages: [
            { id: a!.id, quantity: 2 },
            { id: catalogue.standardPackages[1]!.id, quantity: 2 },
          ],
        })
      ).json().code,
    ).toBe('VALIDATION_FAILED');
    expect(
      (await cart({ packages: [{ id: a!.id }], addOns: [{ id: catalogue.addOns[0]!.id, quantity: 11 }] })).json().code,
    ).toBe('VALIDATION_FAILED');
    const pet = await cart({ packages: [{ id: catalogue.petPack }] });
    expect(pet.json()).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'body.packages.0.id' }] });
    // Default quantity is 1.
    expect((await cart({ packages: [{ id: a!.id }], amount: a!.priceCents })).statusCode).toBe(201);
  });

  it('checks out once: calling again returns the same booking, order and intent', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const { hold, cart, result } = await checkout(who);
    expect(result).toMatchObject({
      amountCents: cart.amountCents,
      client_secret: expect.stringMatching(/^pi_.+_secret_/),
      message: expect.any(String),
    });
    const again = await post(`/api/v1/bookings/reservation/${hold.id}/checkoutOrder`, who, { cartId: cart.id });
    expect(again.json()).toEqual(result);
    expect((await bookingRow(result.bookingId)).status).toBe('payment_pending');
    expect((await bookingRow(result.bookingId)).reference).toMatch(/^KR-[2-9A-Z]{5}$/);
    expect(
      sandbox
        .events('payment_intent.created')
        .filter(
          (e) => (e.data.object as unknown as { metadata: { orderId?: string } }).metadata.orderId === result.orderId,
        ),
    ).toHaveLength(1);
    const pi = sandbox.paymentIntent(result.client_secret.split('_secret_')[0]!)!;
    expect(pi).toMatchObject({
      amount: cart.amountCents,
      currency: 'aud',
      metadata: { bookingId: result.bookingId, orderId: result.orderId },
    });
  });

  it('confirms the booking when the payment succeeds and e-mails a confirmation with a calendar file', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const { hold, result } = await checkout(who);
    expect((await payWithCard(sandbox, result.client_secret, CARDS.success)).status).toBe('succeeded');
    await sandbox.webhooksIdle();
    expect((await bookingRow(result.bookingId)).status).toBe('completed');
    // Paid by the webhook: the reconciliation job's next look is cleared in the same transaction.
    expect(await orderRow(result.orderId)).toMatchObject({
      status: 'paid',
      paidAt: expect.any(Date),
      reconcileAt: null,
    });
    expect(await slotRow(hold.slotId)).toMatchObject({ bookingId: result.bookingId, holdReservationId: null });
    const [mail] = await mailsTo(who.email);
    expect(mail!.subject).toMatch(/^Booked:/);
    // One summary block and this booking's own deadlines (default policy: 24 h to move, 48 h to refund).
    for (const label of ['Date:', 'Time:', 'Place:', 'Reference:', 'Free reschedule until:', 'Full refund until:'])
      expect(mail!.text).toContain(label);
    expect(mail!.html).toContain('#a3162a');
    expect(mail!.attachments[0]).toMatchObject({ contentType: expect.stringContaining('text/calendar') });
    expect(Buffer.from(mail!.attachments[0]!.content, 'base64').toString()).toContain('BEGIN:VEVENT');
  });

  it('records a decline, lets the customer retry with another card while the hold lives', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const { hold, result } = await checkout(who);
    const declined = await payWithCard(sandbox, result.client_secret, CARDS.declined);
    expect(declined.status).toBe('requires_payment_method');
    await sandbox.webhooksIdle();
    expect((await bookingRow(result.bookingId)).status).toBe('payment_failed');
    const retry = await post(`/api/v1/bookings/${result.bookingId}/continue-payment`, who);
    expect(retry.json()).toMatchObject({ client_secret: result.client_secret, reservationId: hold.id });
    // More time during payment: the checked-out hold still runs.
    const more = await post(`/api/v1/bookings/reservation/${hold.id}/refresh`, who);
    expect(more.json()).toMatchObject({ status: 'checked_out', refreshesLeft: 1 });
    // My Bookings says until when: the booking carries the hold's (extended) expiry while unpaid.
    const unpaid = (await t.app.inject({ url: `/api/v1/bookings/${result.bookingId}`, headers: who.headers })).json();
    expect(unpaid).toMatchObject({ status: 'payment_failed', holdExpiresAt: more.json().expiresAt });
    expect((await payWithCard(sandbox, retry.json().client_secret, CARDS.success)).status).toBe('succeeded');
    await sandbox.webhooksIdle();
    expect((await bookingRow(result.bookingId)).status).toBe('completed');
    expect(
      (await t.app.inject({ url: `/api/v1/bookings/${result.bookingId}`, headers: who.headers })).json().holdExpiresAt,
    ).toBeNull();
    expect((await post(`/api/v1/bookings/${result.bookingId}/continue-payment`, who)).json().code).toBe('ALREADY_PAID');
    expect((await post(`/api/v1/bookings/reservation/${hold.id}/refresh`, who)).json().code).toBe('HOLD_EXPIRED');
    // Paid seconds after the decline: no "Payment not completed" e-mail ever went (issue 37 item 3).
    expect((await mailsTo(who.email)).map((m) => m.subject.split(' ')[0])).toEqual(['Booked:']);
  });

  it(
    'e-mails "Payment not completed" once, only when a declined checkout finally lapses (issue 37 item ' + '3)',
    async () => {
      const who = await createCustomer(t.db, t.app.idTokens);
      const { result } = await checkout(who);
      await payWithCard(sandbox, result.client_secret, CARDS.declined);
      await payWithCard(sandbox, result.client_secret, CARDS.insufficientFunds);
      await sandbox.webhooksIdle();
      expect(await mailsTo(who.email)).toEqual([]);
      clock.advance(11 * MINUTE);
      await settleLapsedCheckouts(t.app);
      await settleLapsedCheckouts(t.app);
      const mails = await mailsTo(who.email);
      expect(mails.map((m) => m.subject)).toEqual([expect.stringMatching(/^Payment not completed for KR-/)]);
      expect(mails[0]!.text).toContain('did not go through before the hold ended');
      clock.set(new Date());
    },
  );

  it("refuses a stale cart, an expired hold and someone else's cart", async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const hold = await holdNew(who);
    const cart = (await post('/api/v1/cart', who, { reservationId: hold.id, ...basket() })).json();
    const [a] = catalogue.standardPackages;
    await t.db
      .update(packages)
      .set({ priceCents: a!.priceCents + 500 })
      .where(eq(packages.id, a!.id));
    const stale = await post(`/api/v1/bookings/reservation/${hold.id}/checkoutOrder`, who, { cartId: cart.id });
    await t.db.update(packages).set({ priceCents: a!.priceCents }).where(eq(packages.id, a!.id));
    expect(stale.json().code).toBe('CART_INVALID');

    const stranger = await createCustomer(t.db, t.app.idTokens);
    const strangerHold = await holdNew(stranger);
    expect(
      (
        await post(`/api/v1/bookings/reservation/${strangerHold.id}/checkoutOrder`, stranger, { cartId: cart.id })
      ).json().code,
    ).toBe('CART_INVALID');
    expect(
      (await post(`/api/v1/bookings/reservation/${hold.id}/checkoutOrder`, stranger, { cartId: cart.id })).statusCode,
    ).toBe(404);

    clock.advance(10 * MINUTE);
    const expired = await post(`/api/v1/bookings/reservation/${hold.id}/checkoutOrder`, who, { cartId: cart.id });
    expect(expired.json().code).toBe('HOLD_EXPIRED');
    clock.set(new Date());
  });

  it('limits upcoming bookings per account', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    // Each paid before the next: an unpaid checkout is the family's one hold (decision 0059).
    for (let i = 0; i < 3; i++) {
      const { result } = await checkout(who);
      expect((await payWithCard(sandbox, result.client_secret, CARDS.success)).status).toBe('succeeded');
      await sandbox.webhooksIdle();
    }
    const res = await post('/api/v1/bookings/reservation', who, { slotId: w.nextSession() });
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('BOOKING_LIMIT');
  });

  it('gives the web app the publishable key and the sandbox address', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const res = await t.app.inject({ url: '/api/v1/common/stripe-client-secret', headers: who.headers });
    expect(res.json()).toEqual({
      provider: 'stripe',
      publishableKey: sandbox.publishableKey,
      sandbox: true,
      sandboxUrl: sandbox.url,
    });
  });
});
