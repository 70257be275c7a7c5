import Stripe from 'stripe';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { confirmCardPayment, TEST_CARDS } from '../src/card-payment.client';
import { createStripeSandbox, sandboxKeys } from '../src/stripe-sandbox';
import { signWebhookPayload } from '../src/webhook-signature';
import { createBookingPayment, startFixture, type Fixture } from './sandbox-fixture';
import { receivedTypes, startWebhookReceiver } from './webhook-receiver';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(() => f.close());
afterEach(async () => {
  f.sandbox.resumeWebhooks();
  await f.sandbox.webhooksIdle();
  f.receiver.received.length = 0;
  f.receiver.respondWith([]);
});

async function paySuccessfully() {
  const pi = await createBookingPayment(f.stripe);
  await confirmCardPayment({
    sandboxUrl: f.sandbox.url,
    publishableKey: f.sandbox.publishableKey,
    clientSecret: pi.client_secret!,
    card: { number: TEST_CARDS.success },
  });
  return pi;
}

describe('webhook signatures', () => {
  it('verify with stripe.webhooks.constructEvent and carry Stripe event objects', async () => {
    const pi = await paySuccessfully();
    await f.sandbox.webhooksIdle();
    const succeeded = f.receiver.received.find((r) => r.body.includes('"payment_intent.succeeded"'))!;
    expect(succeeded.signature).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect(succeeded.headers['content-type']).toBe('application/json; charset=utf-8');
    const event = f.stripe.webhooks.constructEvent(succeeded.body, succeeded.signature, f.sandbox.webhookSecret);
    expect(event).toMatchObject({
      object: 'event',
      type: 'payment_intent.succeeded',
      livemode: false,
      api_version: expect.any(String),
      data: {
        object: {
          id: pi.id,
          object: 'payment_intent',
          status: 'succeeded',
          metadata: { bookingId: 'b_1', orderId: 'o_1' },
        },
      },
    });
    expect(event.id).toMatch(/^evt_/);
    expect(Math.abs(event.created - Date.now() / 1000)).toBeLessThan(5);
    // The same event through the API, as a webhook handler may re-fetch it.
    expect((await f.stripe.events.retrieve(event.id)).type).toBe('payment_intent.succeeded');
  });

  it('fail with a wrong secret, a tampered body or an old timestamp', async () => {
    await paySuccessfully();
    await f.sandbox.webhooksIdle();
    const { body, signature } = f.receiver.received.at(-1)!;
    expect(() => f.stripe.webhooks.constructEvent(body, signature, 'whsec_someoneelse')).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    const tampered = body.replace('"amount": 7500', '"amount": 1');
    expect(tampered).not.toBe(body);
    expect(() => f.stripe.webhooks.constructEvent(tampered, signature, f.sandbox.webhookSecret)).toThrow(
      Stripe.errors.StripeSignatureVerificationError,
    );
    const old = signWebhookPayload(body, f.sandbox.webhookSecret, Math.floor(Date.now() / 1000) - 3_600);
    expect(() => f.stripe.webhooks.constructEvent(body, old, f.sandbox.webhookSecret)).toThrow(/tolerance/);
  });

  it('match the SDK’s own test header generator', () => {
    const payload = JSON.stringify({ id: 'evt_1', object: 'event' });
    const timestamp = 1_700_000_000;
    const ours = signWebhookPayload(payload, 'whsec_test_secret', timestamp);
    const sdk = f.stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_test_secret', timestamp });
    expect(ours).toBe(sdk);
  });
});

describe('webhook delivery', () => {
  it('retries with backoff until the receiver answers 2xx, re-signing each attempt', async () => {
    f.receiver.respondWith([500, 503, 400]);
    const pi = await createBookingPayment(f.stripe);
    await f.sandbox.webhooksIdle();
    const [created] = f.sandbox.events('payment_intent.created').filter((e) => e.data.object.id === pi.id);
    const attempts = f.sandbox.webhookAttempts(created!.id);
    expect(attempts.map((a) => a.status)).toEqual([500, 503, 400, 200]);
    // 20, 40, 80 ms apart (exponential), within timer slack.
    const gaps = attempts.slice(1).map((a, i) => a.at - attempts[i]!.at);
    expect(gaps[0]).toBeGreaterThanOrEqual(19);
    expect(gaps[1]).toBeGreaterThanOrEqual(39);
    expect(gaps[2]).toBeGreaterThanOrEqual(79);
    for (const r of f.receiver.received)
      expect(() => f.stripe.webhooks.constructEvent(r.body, r.signature, f.sandbox.webhookSecret)).not.toThrow();
    expect(f.sandbox.pendingWebhooks()).toEqual([]);
  });

  it('retries when the endpoint is down, and gives up after maxAttempts', async () => {
    const gaveUp: string[] = [];
    const sandbox = createStripeSandbox({
      ...sandboxKeys(),
      webhookUrl: 'http://127.0.0.1:9/unreachable',
      webhookRetry: { initialDelayMs: 5, maxDelayMs: 10, maxAttempts: 3, timeoutMs: 500 },
      onWebhookGiveUp: (event) => gaveUp.push(event.id),
    });
    await sandbox.start();
    try {
      const stripe = new Stripe(sandbox.secretKey, sandbox.stripeClientOptions());
      const pi = await stripe.paymentIntents.create({ amount: 5_000, currency: 'aud' });
      await sandbox.webhooksIdle();
      const [event] = sandbox.events();
      expect(event!.data.object.id).toBe(pi.id);
      expect(sandbox.webhookAttempts(event!.id).map((a) => a.ok)).toEqual([false, false, false]);
      expect(sandbox.webhookAttempts(event!.id)[0]!.error).toBeTruthy();
      expect(gaveUp).toEqual([event!.id]);
      expect(sandbox.pendingWebhooks()).toEqual([]);
    } finally {
      await sandbox.stop();
    }
  });

  it('pauses, so a test can deliver events late, twice and out of order', async () => {
    f.sandbox.pauseWebhooks();
    const pi = await paySuccessfully();
    await f.sandbox.webhooksIdle();
    expect(f.receiver.received).toHaveLength(0);
    const pending = f.sandbox.pendingWebhooks().map((e) => e.type);
    expect(pending).toEqual(['payment_intent.created', 'charge.succeeded', 'payment_intent.succeeded']);

    const succeeded = f.sandbox.events('payment_intent.succeeded').find((e) => e.data.object.id === pi.id)!;
    expect((await f.sandbox.redeliver(succeeded.id)).status).toBe(200);
    expect((await f.sandbox.redeliver(succeeded.id)).status).toBe(200);
    expect(receivedTypes(f.receiver)).toEqual(['payment_intent.succeeded', 'payment_intent.succeeded']);
    expect(f.sandbox.pendingWebhooks().map((e) => e.type)).toEqual(['payment_intent.created', 'charge.succeeded']);

    f.sandbox.resumeWebhooks();
    await f.sandbox.webhooksIdle();
    expect(receivedTypes(f.receiver)).toEqual([
      'payment_intent.succeeded',
      'payment_intent.succeeded',
      'payment_intent.created',
      'charge.succeeded',
    ]);
    const ids = f.receiver.received.map((r) => (JSON.parse(r.body) as Stripe.Event).id);
    expect(ids[0]).toBe(ids[1]);
  });

  it('records events without an endpoint and starts delivering once one is set', async () => {
    const receiver = await startWebhookReceiver();
    const sandbox = createStripeSandbox({ ...sandboxKeys() });
    await sandbox.start();
    try {
      const stripe = new Stripe(sandbox.secretKey, sandbox.stripeClientOptions());
      await stripe.paymentIntents.create({ amount: 5_000, currency: 'aud' });
      expect(sandbox.events()).toHaveLength(1);
      expect(sandbox.events()[0]!.pending_webhooks).toBe(0);
      sandbox.setWebhookUrl(receiver.url);
      await stripe.paymentIntents.create({ amount: 6_000, currency: 'aud' });
      await sandbox.webhooksIdle();
      expect(receiver.received).toHaveLength(1);
      expect((JSON.parse(receiver.received[0]!.body) as Stripe.Event).data.object).toMatchObject({ amount: 6_000 });
    } finally {
      await sandbox.stop();
      await receiver.close();
    }
  });

  it('lists events newest first, filtered by type', async () => {
    const pi = await paySuccessfully();
    const list = await f.stripe.events.list({ type: 'payment_intent.*', limit: 2 });
    expect(list.data.map((e) => e.type)).toEqual(['payment_intent.succeeded', 'payment_intent.created']);
    expect(list.data.every((e) => (e.data.object as { id: string }).id === pi.id)).toBe(true);
    expect(list.has_more).toBe(true);
  });
});
