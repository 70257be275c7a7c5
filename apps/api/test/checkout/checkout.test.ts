import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings, orders } from '../../src/db/schema/bookings';
import { packages, slots } from '../../src/db/schema/catalogue';
import { mailOutbox } from '../../src/db/schema/mail';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { settleLapsedCheckouts } from '../../src/modules/payments/unpaid-checkouts.service';
import { createCustomer, reauthenticate, type TestCustomer } from '../helpers/customers';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { createTestApp, type TestApp } from '../helpers/test-app';

const MINUTE = 60_000;

describe('cart, checkout and card payment', () => {
  let t: TestApp;
  let sandbox: StripeSandbox;
  let clock: ManualClock;
  let sessionIds: string[];
  let next = 0;
  let catalogue: {
    standardPackages: { id: string; priceCents: number; name: string }[];
    petPack: string;
    addOns: { id: string; priceCents: number }[];
  };

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    clock = new ManualClock(new Date());
    t = await createTestApp({ ...s.env, MAX_UPCOMING_BOOKINGS: '3' }, clock);
    await listenForWebhooks(t.app, sandbox);
    await loadSeason(t.db, demoSeason(clock.now(), { days: 42 }), clock.now());
    const rows = await t.db.execute(sql`
      select s.id from slots s join slot_types st on st.id = s.slot_type_id
      where s.kind = 'session' and st.slug = 'standard' and s.start_at > now() + interval '3 days' order by s.start_at
      limit 40`);
    sessionIds = rows.rows.map((r) => r.id as string);
    const pkgs = await t.db.select().from(packages);
    const who = await createCustomer(t.db, t.app.idTokens);
    const addOns = (await t.app.inject({ url: '/api/v1/product/addons', headers: who.headers })).json().items;
    catalogue = {
      standardPackages: pkgs
        .filter((p) => !p.slotTypeSlugs)
        .map((p) => ({ id: p.id, priceCents: p.priceCents, name: p.name })),
      petPack: pkgs.find((p) => p.slotTypeSlugs)!.id,
      addOns,
    };
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.stop();
  });

  const post = (url: string, who: TestCustomer, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });
  const holdNew = async (who: TestCustomer, slotId = sessionIds[next++]!) => {
    const res = await post('/api/v1/bookings/reservation', who, { slotId });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: string; slotId: string };
  };
  const basket = () => {
    const [a, b] = catalogue.standardPackages;
    const extra = catalogue.addOns[0]!;
    return {
      packages: [
        { id: a!.id, quantity: 1 },
        { id: b!.id, quantity: 2 },
      ],
      addOns: [{ id: extra.id, quantity: 3 }],
      amount: a!.priceCents + 2 * b!.priceCents + 3 * extra.priceCents,
    };
  };
  const checkout = async (who: TestCustomer) => {
    const hold = await holdNew(who);
    const cart = await post('/api/v1/cart', who, { reservationId: hold.id, ...basket() });
    expect(cart.statusCode).toBe(201);
    const res = await post(`/api/v1/bookings/reservation/${hold.id}/checkoutOrder`, who, { cartId: cart.json().id });
    expect(res.statusCode).toBe(201);
    return {
      hold,
      cart: cart.json(),
      result: res.json() as { bookingId: string; orderId: string; client_secret: string; amountCents: number },
    };
  };
  const bookingRow = async (id: string) => (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
  const orderRow = async (id: string) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const slotRow = async (id: string) => (await t.db.select().from(slots).where(eq(slots.id, id)))[0]!;
  const mailsTo = (email: string) =>
    t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.createdAt));

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

  it('applies duplicated and out-of-order webhooks once and in the right sense', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const { result } = await checkout(who);
    sandbox.pauseWebhooks();
    await payWithCard(sandbox, result.client_secret, CARDS.declined);
    await payWithCard(sandbox, result.client_secret, CARDS.success);
    const pi = result.client_secret.split('_secret_')[0]!;
    const ofIntent = (type: string) =>
      sandbox.events(type).filter((e) => (e.data.object as unknown as { id: string }).id === pi);
    // Success first, then the older failure, then the success again.
    await sandbox.redeliver(ofIntent('payment_intent.succeeded')[0]!.id);
    await sandbox.redeliver(ofIntent('payment_intent.payment_failed')[0]!.id);
    await sandbox.redeliver(ofIntent('payment_intent.succeeded')[0]!.id);
    sandbox.resumeWebhooks();
    await sandbox.webhooksIdle();
    expect((await bookingRow(result.bookingId)).status).toBe('completed');
    expect((await orderRow(result.orderId)).status).toBe('paid');
    expect((await mailsTo(who.email)).filter((m) => m.subject.startsWith('Booked:'))).toHaveLength(1);
  });

  it('refuses forged webhooks', async () => {
    const address = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api/v1/webhooks/stripe`;
    const body = JSON.stringify({
      id: 'evt_forged',
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_x', metadata: {} } },
    });
    const unsigned = await fetch(address, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(unsigned.status).toBe(400);
    const badSig = await fetch(address, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
      },
      body,
    });
    expect(badSig.status).toBe(400);
    expect(await badSig.json()).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('confirms a payment that lands after the hold lapsed if the session is still free', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const { hold, result } = await checkout(who);
    sandbox.pauseWebhooks();
    await payWithCard(sandbox, result.client_secret, CARDS.success);
    clock.advance(11 * MINUTE);
    // The lapsed-checkout sweep reads the intent first: a paid one is confirmed, never cancelled.
    await settleLapsedCheckouts(t.app);
    expect((await bookingRow(result.bookingId)).status).toBe('completed');
    sandbox.resumeWebhooks();
    await sandbox.webhooksIdle();
    expect((await bookingRow(result.bookingId)).status).toBe('completed');
    expect((await slotRow(hold.slotId)).bookingId).toBe(result.bookingId);
    expect((await mailsTo(who.email)).map((m) => m.subject.split(':')[0])).toEqual(['Booked']);
    clock.set(new Date());
  });

  it('refunds at once a payment that lands after the session went to someone else', async () => {
    let late = await createCustomer(t.db, t.app.idTokens);
    const { hold, result } = await checkout(late);
    sandbox.pauseWebhooks();
    await payWithCard(sandbox, result.client_secret, CARDS.success);
    clock.advance(11 * MINUTE);
    const other = await createCustomer(t.db, t.app.idTokens);
    await holdNew(other, hold.slotId);
    sandbox.resumeWebhooks();
    await sandbox.webhooksIdle();
    expect((await bookingRow(result.bookingId)).status).toBe('cancelled');
    expect(await orderRow(result.orderId)).toMatchObject({ status: 'refunded', refundedCents: result.amountCents });
    expect(sandbox.events('charge.refunded').length).toBeGreaterThan(0);
    late = await reauthenticate(t.app.idTokens, late);
    const [mail] = await mailsTo(late.email);
    expect(mail!.subject).toMatch(/^Refund for/);
    clock.set(new Date());
  });

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
    const res = await post('/api/v1/bookings/reservation', who, { slotId: sessionIds[next++]! });
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
