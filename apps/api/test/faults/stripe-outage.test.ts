import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { bookings, refunds } from '../../src/db/schema/bookings';
import { mailOutbox } from '../../src/db/schema/mail';
import { refundsJob } from '../../src/jobs/refunds.job';
import { ManualClock } from '../../src/lib/clock';
import { RECONCILE_POLICY, reconcilePayments } from '../../src/modules/payments/payment-reconciliation.service';
import { settleLapsedCheckouts } from '../../src/modules/payments/unpaid-checkouts.service';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { startFaultyProxy, type FaultyProxy } from '../helpers/faulty-proxy';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { basketFor, holdAndCart, injectCall, seedSessions, type Call } from './booking-flow';

const MINUTE = 60_000;
/** The SDK's per-attempt timeout here; a "late" answer comes after it, once the sandbox has done the work. */
const TIMEOUT_MS = 2_000;
const LATE_MS = TIMEOUT_MS + 700;

type Obj = { id: string; metadata?: Record<string, string>; payment_intent?: string };
const objectOf = (e: { data: { object: unknown } }) => e.data.object as Obj;

/**
 * Stripe answering 500 and timing out, injected by a proxy between the official SDK and the real
 * sandbox. The SDK retries with the same idempotency key, so each create, refund and cancel
 * happens once; when Stripe stays down the customer gets a 503 and keeps the hold, and the
 * jobs finish the work later.
 */
// SDK timeouts and retry back-offs add up to several seconds per test.
describe('fault: Stripe answering 500 and timing out', { timeout: 60_000 }, () => {
  let sandbox: StripeSandbox;
  let proxy: FaultyProxy;
  let t: TestApp;
  let call: Call;
  let sessions: string[];
  let next = 0;
  let basket: Awaited<ReturnType<typeof basketFor>>;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    proxy = await startFaultyProxy(s.env.STRIPE_API_URL!);
    t = await createTestApp({ ...s.env, STRIPE_API_URL: proxy.url, STRIPE_TIMEOUT_MS: String(TIMEOUT_MS) }, clock);
    await listenForWebhooks(t.app, sandbox);
    call = injectCall(t.app);
    sessions = await seedSessions(t.db, clock.now(), 30);
    basket = await basketFor(t.db);
  });
  afterEach(() => {
    proxy.heal();
    clock.set(new Date());
  });
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await sandbox?.stop();
  });

  const intentsOfOrder = (orderId: string) =>
    sandbox.events('payment_intent.created').filter((e) => objectOf(e).metadata?.orderId === orderId);
  const refundsOfIntent = (intentId: string) =>
    sandbox.events('refund.created').filter((e) => objectOf(e).payment_intent === intentId);
  const keysOf = (path: string) =>
    proxy.requests.filter((r) => r.method === 'POST' && r.path === path).map((r) => r.idempotencyKey);

  async function checkout(who: TestCustomer) {
    const flow = await holdAndCart(call, who, sessions[next++]!, basket);
    return { flow, answer: await call('POST', flow.checkoutUrl, who, { cartId: flow.cartId }) };
  }

  async function paidBooking(who: TestCustomer) {
    const { answer } = await checkout(who);
    expect((await payWithCard(sandbox, answer.body.client_secret as string, CARDS.success)).status).toBe('succeeded');
    await sandbox.webhooksIdle();
    const bookingId = answer.body.bookingId as string;
    expect((await t.db.select().from(bookings).where(eq(bookings.id, bookingId)))[0]!.status).toBe('completed');
    return {
      bookingId,
      orderId: answer.body.orderId as string,
      intentId: (answer.body.client_secret as string).split('_secret_')[0]!,
    };
  }

  it(
    'PaymentIntent create answered 500 twice: the SDK retries with the same key and the checkout gets one ' + 'intent',
    async () => {
      const who = await createCustomer(t.db, t.app.idTokens);
      proxy.failNext(2, 'POST /v1/payment_intents');
      const { answer } = await checkout(who);
      expect(answer.status).toBe(201);
      expect(intentsOfOrder(answer.body.orderId as string)).toHaveLength(1);
      const keys = keysOf('/v1/payment_intents').filter((k) => k === `order-${answer.body.orderId}-payment-intent`);
      expect(keys).toHaveLength(3);
    },
  );

  it('PaymentIntent create timing out after Stripe made it: the retry replays it, one intent', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    proxy.answerLate(1, LATE_MS, 'POST /v1/payment_intents');
    const { answer } = await checkout(who);
    expect(answer.status).toBe(201);
    const created = intentsOfOrder(answer.body.orderId as string);
    expect(created).toHaveLength(1);
    expect(answer.body.client_secret).toMatch(new RegExp(`^${objectOf(created[0]!).id}_secret_`));
    expect(
      keysOf('/v1/payment_intents').filter((k) => k === `order-${answer.body.orderId}-payment-intent`).length,
    ).toBeGreaterThanOrEqual(2);
  });

  it(
    'Stripe down at checkout: 503 with Retry-After, the hold stays, and the retry once Stripe is back gives one ' +
      'intent',
    async () => {
      const who = await createCustomer(t.db, t.app.idTokens);
      proxy.failNext(1000, 'POST /v1/payment_intents');
      const { flow, answer } = await checkout(who);
      expect(answer.status).toBe(503);
      expect(answer.retryAfter).toMatch(/^\d+$/);
      expect(answer.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', error: expect.stringMatching(/held/) });
      const hold = await call('GET', `/api/v1/bookings/reservation/${flow.reservationId}`, who);
      expect(hold.body).toMatchObject({ status: 'checked_out' });

      proxy.heal();
      const retry = await call('POST', flow.checkoutUrl, who, { cartId: flow.cartId });
      expect(retry.status).toBe(201);
      expect(retry.body.expiresAt).toBe(hold.body.expiresAt);
      expect(intentsOfOrder(retry.body.orderId as string)).toHaveLength(1);
    },
  );

  it('refund answered 500 twice, then a refund timing out: each booking is refunded exactly once', async () => {
    const [alice, bob] = [await createCustomer(t.db, t.app.idTokens), await createCustomer(t.db, t.app.idTokens)];
    const first = await paidBooking(alice);
    const second = await paidBooking(bob);

    proxy.failNext(2, 'POST /v1/refunds');
    const a = await call('POST', `/api/v1/bookings/${first.bookingId}/cancel`, alice, {});
    expect(a.status).toBe(200);
    expect(a.body.refund).toMatchObject({ status: 'succeeded' });
    expect(refundsOfIntent(first.intentId)).toHaveLength(1);

    proxy.answerLate(1, LATE_MS, 'POST /v1/refunds');
    const b = await call('POST', `/api/v1/bookings/${second.bookingId}/cancel`, bob, {});
    expect(b.body.refund).toMatchObject({ status: 'succeeded' });
    expect(refundsOfIntent(second.intentId)).toHaveLength(1);
  });

  it(
    'Stripe down when cancelling: the cancellation stands with a pending refund, and the refund job sends it once ' +
      'Stripe is back',
    async () => {
      const who = await createCustomer(t.db, t.app.idTokens);
      const paid = await paidBooking(who);
      proxy.failNext(1000, 'POST /v1/refunds');
      const answer = await call('POST', `/api/v1/bookings/${paid.bookingId}/cancel`, who, {});
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ booking: { status: 'cancelled' }, refund: { status: 'pending' } });
      expect(refundsOfIntent(paid.intentId)).toHaveLength(0);
      // My Bookings can say the refund is on its way: it is owed, not yet at the card.
      const ordersPath = `/api/v1/orders/${paid.bookingId}/orders`;
      const refunded = (answer.body.refund as { amountCents: number }).amountCents;
      const ordersNow = async () => ((await call('GET', ordersPath, who)).body.items as Record<string, unknown>[])[0];
      expect(await ordersNow()).toMatchObject({ refundedCents: 0, refundPendingCents: refunded });

      proxy.heal();
      clock.advance(2 * MINUTE);
      await refundsJob(t.app).run();
      await refundsJob(t.app).run();
      const [row] = await t.db.select().from(refunds).where(eq(refunds.bookingId, paid.bookingId));
      expect(row).toMatchObject({ status: 'succeeded', attempts: 1 });
      expect(refundsOfIntent(paid.intentId)).toHaveLength(1);
      expect(await ordersNow()).toMatchObject({ refundedCents: refunded, refundPendingCents: 0 });
    },
  );

  it(
    'Stripe down when a checkout lapses: the session is free for others at once, and the intent is cancelled once ' +
      'Stripe is back',
    async () => {
      const who = await createCustomer(t.db, t.app.idTokens);
      const { flow, answer } = await checkout(who);
      const bookingId = answer.body.bookingId as string;
      const intentId = (answer.body.client_secret as string).split('_secret_')[0]!;
      clock.advance(11 * MINUTE);
      proxy.failNext(1000);
      await settleLapsedCheckouts(t.app);
      // Not cancelled blind: the intent could not be read, so the booking waits...
      expect((await t.db.select().from(bookings).where(eq(bookings.id, bookingId)))[0]!.status).toBe('payment_pending');
      // ...but the session is not stuck behind it.
      const other = await createCustomer(t.db, t.app.idTokens);
      const slotId = (await call('GET', `/api/v1/bookings/reservation/${flow.reservationId}`, who)).body
        .slotId as string;
      expect((await call('POST', '/api/v1/bookings/reservation', other, { slotId })).status).toBe(201);

      proxy.heal();
      proxy.answerLate(1, LATE_MS, `POST /v1/payment_intents/${intentId}/cancel`);
      await settleLapsedCheckouts(t.app);
      expect((await t.db.select().from(bookings).where(eq(bookings.id, bookingId)))[0]).toMatchObject({
        status: 'cancelled',
        cancelReason: 'hold_expired',
      });
      expect(sandbox.paymentIntent(intentId)!.status).toBe('canceled');
      expect(sandbox.events('payment_intent.canceled').filter((e) => objectOf(e).id === intentId)).toHaveLength(1);
      expect(
        keysOf(`/v1/payment_intents/${intentId}/cancel`).every(
          (k) => k === `order-${answer.body.orderId}-cancel-intent`,
        ),
      ).toBe(true);
    },
  );

  it(
    'Stripe down while reconciling a lost webhook: nothing changes, and a later look applies the payment ' + 'once',
    async () => {
      const who = await createCustomer(t.db, t.app.idTokens);
      const { answer } = await checkout(who);
      const bookingId = answer.body.bookingId as string;
      sandbox.pauseWebhooks();
      try {
        expect((await payWithCard(sandbox, answer.body.client_secret as string, CARDS.success)).status).toBe(
          'succeeded',
        );
        clock.advance(t.config.PAYMENT_RECONCILE_GRACE_SECONDS * 1000);
        proxy.failNext(1000, 'GET /v1/payment_intents');
        await reconcilePayments(t.app);
        expect((await t.db.select().from(bookings).where(eq(bookings.id, bookingId)))[0]!.status).toBe(
          'payment_pending',
        );

        proxy.heal();
        clock.advance(RECONCILE_POLICY.leaseMs);
        await reconcilePayments(t.app);
        expect((await t.db.select().from(bookings).where(eq(bookings.id, bookingId)))[0]!.status).toBe('completed');
      } finally {
        sandbox.resumeWebhooks();
        await sandbox.webhooksIdle();
      }
      expect((await t.db.select().from(bookings).where(eq(bookings.id, bookingId)))[0]!.status).toBe('completed');
      const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, who.email));
      expect(mails.map((m) => m.subject.split(':')[0])).toEqual(['Booked']);
    },
  );
});
