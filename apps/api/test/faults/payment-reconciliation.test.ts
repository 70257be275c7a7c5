import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { bookings, orders } from '../../src/db/schema/bookings';
import { slots } from '../../src/db/schema/catalogue';
import { mailOutbox } from '../../src/db/schema/mail';
import { ManualClock } from '../../src/lib/clock';
import { reconcilePayments } from '../../src/modules/payments/payment-reconciliation.service';
import { refundsOfBooking } from '../../src/modules/order-payments/refunds.repository';
import { settleLapsedCheckouts } from '../../src/modules/payments/unpaid-checkouts.service';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { basketFor, holdAndCart, injectCall, seedSessions, type Call } from './booking-flow';

const GRACE_SECONDS = 120;
const MINUTE = 60_000;

/**
 * The reconciliation job in one process, with the app clock in hand: payments whose webhook
 * never came are applied from the PaymentIntent as the webhook would have, once, and late or
 * repeated webhooks afterwards change nothing. (The killed-process story is api-killed.test.ts.)
 */
describe('fault: lost payment webhooks, repaired by reconciliation', () => {
  let sandbox: StripeSandbox;
  let t: TestApp;
  let call: Call;
  let sessions: string[];
  let next = 0;
  let basket: Awaited<ReturnType<typeof basketFor>>;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    t = await createTestApp({ ...s.env, PAYMENT_RECONCILE_GRACE_SECONDS: String(GRACE_SECONDS) }, clock);
    await listenForWebhooks(t.app, sandbox);
    call = injectCall(t.app);
    sessions = await seedSessions(t.db, clock.now(), 20);
    basket = await basketFor(t.db);
  });
  afterEach(async () => {
    sandbox.resumeWebhooks();
    await sandbox.webhooksIdle();
    clock.set(new Date());
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.stop();
  });

  const booking = async (id: string) => (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0]!;
  const order = async (id: string) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0]!;
  const subjects = async (who: TestCustomer) =>
    (await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, who.email))).map(
      (m) => m.subject.split(/[:\s]/)[0],
    );
  const eventOf = (type: string, intentId: string) =>
    sandbox.events(type).find((e) => (e.data.object as unknown as { id: string }).id === intentId)!;

  /** Checks out and pays while webhooks are held back: the booking write never happens by webhook. */
  async function payWithoutWebhook(who: TestCustomer) {
    const flow = await holdAndCart(call, who, sessions[next++]!, basket);
    const answer = await call('POST', flow.checkoutUrl, who, { cartId: flow.cartId });
    sandbox.pauseWebhooks();
    expect((await payWithCard(sandbox, answer.body.client_secret as string, CARDS.success)).status).toBe('succeeded');
    const intentId = (answer.body.client_secret as string).split('_secret_')[0]!;
    return { flow, bookingId: answer.body.bookingId as string, orderId: answer.body.orderId as string, intentId };
  }

  it(
    'confirms a paid booking whose webhook never came, after the grace period, once; the late webhook and a ' +
      'duplicate change nothing',
    async () => {
      const who = await createCustomer(t.db, t.app.idTokens);
      const paid = await payWithoutWebhook(who);
      await reconcilePayments(t.app);
      expect((await booking(paid.bookingId)).status).toBe('payment_pending');

      clock.advance(GRACE_SECONDS * 1000);
      await reconcilePayments(t.app);
      expect((await booking(paid.bookingId)).status).toBe('completed');
      expect(await order(paid.orderId)).toMatchObject({ status: 'paid', reconcileAt: null });
      expect(
        (
          await t.db
            .select()
            .from(slots)
            .where(eq(slots.id, (await booking(paid.bookingId)).slotId))
        )[0]!.bookingId,
      ).toBe(paid.bookingId);
      expect(await subjects(who)).toEqual(['Booked']);

      sandbox.resumeWebhooks();
      await sandbox.webhooksIdle();
      expect((await sandbox.redeliver(eventOf('payment_intent.succeeded', paid.intentId).id)).status).toBe(200);
      await reconcilePayments(t.app);
      expect((await booking(paid.bookingId)).status).toBe('completed');
      expect(await subjects(who)).toEqual(['Booked']);
      expect(await refundsOfBooking(t.db, paid.bookingId)).toEqual([]);
    },
  );

  it('refunds once a payment whose webhook never came when the session went to someone else meanwhile', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const paid = await payWithoutWebhook(who);
    clock.advance(11 * MINUTE);
    const other = await createCustomer(t.db, t.app.idTokens);
    const slotId = (await booking(paid.bookingId)).slotId;
    expect((await call('POST', '/api/v1/bookings/reservation', other, { slotId })).status).toBe(201);

    await reconcilePayments(t.app);
    expect(await booking(paid.bookingId)).toMatchObject({
      status: 'cancelled',
      cancelReason: 'session_taken_before_payment',
    });
    expect(await order(paid.orderId)).toMatchObject({ status: 'refunded', refundedCents: basket.amount });
    sandbox.resumeWebhooks();
    await sandbox.webhooksIdle();
    await sandbox.redeliver(eventOf('payment_intent.succeeded', paid.intentId).id);
    expect(await refundsOfBooking(t.db, paid.bookingId)).toHaveLength(1);
    expect(
      sandbox
        .events('refund.created')
        .filter((e) => (e.data.object as unknown as { payment_intent: string }).payment_intent === paid.intentId),
    ).toHaveLength(1);
    expect(await subjects(who)).toEqual(['Refund']);
  });

  it('two processes reconciling at once apply a payment once', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const paid = await payWithoutWebhook(who);
    const second = await createTestApp(
      { ...sandboxEnv(), PAYMENT_RECONCILE_GRACE_SECONDS: String(GRACE_SECONDS) },
      clock,
      undefined,
      { databaseUrl: t.databaseUrl },
    );
    try {
      clock.advance(GRACE_SECONDS * 1000);
      const looked = await Promise.all([
        reconcilePayments(t.app),
        reconcilePayments(second.app),
        reconcilePayments(t.app),
        reconcilePayments(second.app),
      ]);
      expect(looked.reduce((a, b) => a + b, 0)).toBe(1);
      expect((await booking(paid.bookingId)).status).toBe('completed');
      expect(await subjects(who)).toEqual(['Booked']);
    } finally {
      await second.close();
    }
  });

  it('leaves an unpaid checkout alone and looks again later, less and less often', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const flow = await holdAndCart(call, who, sessions[next++]!, basket);
    const answer = await call('POST', flow.checkoutUrl, who, { cartId: flow.cartId });
    clock.advance(GRACE_SECONDS * 1000);
    const firstLook = clock.now().getTime();
    expect(await reconcilePayments(t.app)).toBeGreaterThanOrEqual(1);
    expect((await booking(answer.body.bookingId as string)).status).toBe('payment_pending');
    const second = (await order(answer.body.orderId as string)).reconcileAt!.getTime();
    expect(second).toBeGreaterThan(firstLook);
    clock.set(new Date(second));
    await reconcilePayments(t.app);
    const third = (await order(answer.body.orderId as string)).reconcileAt!.getTime();
    expect(third - second).toBeGreaterThan(second - firstLook);
  });

  it(
    'stops for good, with one log line and the reason on the order, when Stripe has no such PaymentIntent; the hold ' +
      'then lapses as usual',
    async () => {
      const who = await createCustomer(t.db, t.app.idTokens);
      const flow = await holdAndCart(call, who, sessions[next++]!, basket);
      const answer = await call('POST', flow.checkoutUrl, who, { cartId: flow.cartId });
      const orderId = answer.body.orderId as string;
      const bookingId = answer.body.bookingId as string;
      // As after a restart of a sandbox that kept nothing: the order names an intent Stripe never heard of.
      const forgotten = `pi_forgotten_${orderId.slice(0, 8)}`;
      await t.db.update(orders).set({ paymentIntentId: forgotten }).where(eq(orders.id, orderId));
      const errors = vi.spyOn(t.app.log, 'error');
      const warnings = vi.spyOn(t.app.log, 'warn');
      try {
        clock.advance(GRACE_SECONDS * 1000);
        await reconcilePayments(t.app);
        const stopped = await order(orderId);
        expect(stopped.reconcileAt).toBeNull();
        expect(stopped.reconcileError).toMatch(/^resource_missing: No such payment_intent/);
        expect(stopped.reconcileFailedAt).toEqual(clock.now());
        const stopLines = () =>
          errors.mock.calls.filter((c) => String(c[1]).startsWith('payment reconciliation stopped'));
        expect(stopLines()).toHaveLength(1);
        expect(stopLines()[0]![0]).toMatchObject({ orderId, paymentIntentId: forgotten, code: 'resource_missing' });

        // Passes later do not ask again.
        for (let i = 0; i < 3; i++) {
          clock.advance(60 * MINUTE);
          await reconcilePayments(t.app);
        }
        expect(stopLines()).toHaveLength(1);
        expect(warnings.mock.calls.filter((c) => String(c[1]).includes('will try again'))).toHaveLength(0);

        // The hold has lapsed meanwhile: the checkout is cancelled as any lapsed one, once.
        await settleLapsedCheckouts(t.app);
        await settleLapsedCheckouts(t.app);
        expect(await booking(bookingId)).toMatchObject({ status: 'cancelled', cancelReason: 'hold_expired' });
        expect(await order(orderId)).toMatchObject({ status: 'failed' });
        expect(warnings.mock.calls.filter((c) => String(c[1]).includes('unknown to Stripe'))).toHaveLength(1);
        expect(await subjects(who)).toEqual(['Booking']); // "Booking KR-… was not completed"
      } finally {
        errors.mockRestore();
        warnings.mockRestore();
      }
    },
  );

  function sandboxEnv() {
    return {
      STRIPE_SECRET_KEY: sandbox.secretKey,
      STRIPE_PUBLISHABLE_KEY: sandbox.publishableKey,
      STRIPE_WEBHOOK_SECRET: sandbox.webhookSecret,
      STRIPE_API_URL: sandbox.url,
    };
  }
});
