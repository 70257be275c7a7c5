import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookingPayment, startFixture, type Fixture } from './sandbox-fixture';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(() => f.close());

describe('PaymentIntents through the real SDK', () => {
  it('creates a PaymentIntent shaped like Stripe', async () => {
    const pi = await createBookingPayment(f.stripe);
    expect(pi).toMatchObject({
      object: 'payment_intent',
      amount: 7_500,
      currency: 'aud',
      status: 'requires_payment_method',
      automatic_payment_methods: { enabled: true },
      metadata: { bookingId: 'b_1', orderId: 'o_1' },
      description: 'Photos with Santa',
      receipt_email: 'demo@kringle.test',
      last_payment_error: null,
      next_action: null,
      latest_charge: null,
      livemode: false,
    });
    expect(pi.id).toMatch(/^pi_[A-Za-z0-9]{24}$/);
    expect(pi.client_secret).toMatch(new RegExp(`^${pi.id}_secret_[A-Za-z0-9]+$`));
    expect(Math.abs(pi.created - Date.now() / 1000)).toBeLessThan(5);
    expect(pi.lastResponse.requestId).toMatch(/^req_/);
  });

  it('replays the stored response for a repeated idempotency key', async () => {
    const first = await createBookingPayment(f.stripe, 7_500, 'checkout-order-1');
    const second = await createBookingPayment(f.stripe, 7_500, 'checkout-order-1');
    expect(second.id).toBe(first.id);
    expect(second.client_secret).toBe(first.client_secret);
    expect(first.lastResponse.headers['idempotent-replayed']).toBeUndefined();
    expect(second.lastResponse.headers['idempotent-replayed']).toBe('true');
    expect(second.lastResponse.headers['original-request']).toBe(first.lastResponse.requestId);
    expect(f.sandbox.events('payment_intent.created').filter((e) => e.data.object.id === first.id)).toHaveLength(1);
  });

  it('refuses the same key with other parameters or on another endpoint', async () => {
    await createBookingPayment(f.stripe, 7_500, 'checkout-order-2');
    const other = await createBookingPayment(f.stripe, 9_900, 'checkout-order-2').catch((e: unknown) => e);
    expect(other).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect(other).toMatchObject({ type: 'StripeIdempotencyError', statusCode: 400 });
    expect((other as Error).message).toContain('same parameters');
    const refund = await f.stripe.refunds
      .create({ payment_intent: 'pi_x' }, { idempotencyKey: 'checkout-order-2' })
      .catch((e: unknown) => e);
    expect(refund).toBeInstanceOf(Stripe.errors.StripeIdempotencyError);
    expect((refund as Error).message).toContain('same endpoint');
  });

  it('does not store a request that failed validation, so the key can be reused', async () => {
    const bad = await f.stripe.paymentIntents
      .create({ amount: 10, currency: 'aud' }, { idempotencyKey: 'k-validation' })
      .catch((e: unknown) => e);
    expect(bad).toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'amount_too_small',
      param: 'amount',
      statusCode: 400,
    });
    const good = await f.stripe.paymentIntents.create(
      { amount: 5_000, currency: 'aud' },
      { idempotencyKey: 'k-validation' },
    );
    expect(good.amount).toBe(5_000);
  });

  it('scopes idempotency keys per API key', async () => {
    const pi = await createBookingPayment(f.stripe, 7_500, 'shared-key');
    const res = await fetch(`${f.sandbox.url}/v1/payment_intents/${pi.id}/confirm`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${f.sandbox.publishableKey}`,
        'content-type': 'application/x-www-form-urlencoded',
        'idempotency-key': 'shared-key',
      },
      body: new URLSearchParams({ client_secret: pi.client_secret!, payment_method: 'pm_card_visa' }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('idempotent-replayed')).toBeNull();
  });

  it('retrieves, updates metadata and amount, and cancels', async () => {
    const pi = await createBookingPayment(f.stripe);
    expect((await f.stripe.paymentIntents.retrieve(pi.id)).id).toBe(pi.id);
    const updated = await f.stripe.paymentIntents.update(pi.id, {
      amount: 9_000,
      metadata: { orderId: '', holdId: 'h_9' },
    });
    expect(updated.amount).toBe(9_000);
    expect(updated.metadata).toEqual({ bookingId: 'b_1', holdId: 'h_9' });
    const canceled = await f.stripe.paymentIntents.cancel(pi.id, { cancellation_reason: 'abandoned' });
    expect(canceled).toMatchObject({ status: 'canceled', cancellation_reason: 'abandoned' });
    expect(canceled.canceled_at).toBeTypeOf('number');
    await f.sandbox.webhooksIdle();
    expect(f.sandbox.events('payment_intent.canceled').map((e) => e.data.object.id)).toContain(pi.id);
  });

  it('refuses to cancel or change the amount of a succeeded PaymentIntent, like Stripe', async () => {
    const pi = await createBookingPayment(f.stripe);
    await f.stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' });
    const cancel = await f.stripe.paymentIntents.cancel(pi.id).catch((e: unknown) => e);
    expect(cancel).toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'payment_intent_unexpected_state',
      statusCode: 400,
    });
    expect((cancel as Error).message).toContain('status of succeeded');
    const amount = await f.stripe.paymentIntents.update(pi.id, { amount: 100 }).catch((e: unknown) => e);
    expect(amount).toMatchObject({ code: 'payment_intent_unexpected_state' });
    // Metadata stays editable after payment, as on Stripe.
    expect((await f.stripe.paymentIntents.update(pi.id, { metadata: { note: 'paid' } })).metadata.note).toBe('paid');
  });

  it('clears metadata with an empty hash value and refuses JSON bodies', async () => {
    const pi = await createBookingPayment(f.stripe);
    const res = await fetch(`${f.sandbox.url}/v1/payment_intents/${pi.id}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.sandbox.secretKey}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'metadata=',
    });
    expect(((await res.json()) as { metadata: object }).metadata).toEqual({});
    const json = await fetch(`${f.sandbox.url}/v1/payment_intents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${f.sandbox.secretKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ amount: 5_000, currency: 'aud' }),
    });
    expect(json.status).toBe(400);
  });

  it('answers Stripe error shapes: unknown id, unknown parameter, missing parameter', async () => {
    await expect(f.stripe.paymentIntents.retrieve('pi_missing')).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      code: 'resource_missing',
      statusCode: 404,
      message: "No such payment_intent: 'pi_missing'",
    });
    const unknown = f.stripe.paymentIntents.create({ amount: 5_000, currency: 'aud', customer: 'cus_1' });
    await expect(unknown).rejects.toMatchObject({ code: 'parameter_unknown', param: 'customer' });
    await expect(
      f.stripe.paymentIntents.create({ currency: 'aud' } as Stripe.PaymentIntentCreateParams),
    ).rejects.toMatchObject({
      code: 'parameter_missing',
      param: 'amount',
    });
  });

  it('refuses a wrong or publishable key on server calls with 401', async () => {
    const wrong = new Stripe('sk_test_sandbox_wrongwrongwrong', {
      ...f.sandbox.stripeClientOptions(),
      maxNetworkRetries: 0,
    });
    await expect(wrong.paymentIntents.retrieve('pi_x')).rejects.toMatchObject({
      type: 'StripeAuthenticationError',
      statusCode: 401,
    });
    const publishable = new Stripe(f.sandbox.publishableKey, {
      ...f.sandbox.stripeClientOptions(),
      maxNetworkRetries: 0,
    });
    await expect(createBookingPayment(publishable)).rejects.toMatchObject({ type: 'StripeAuthenticationError' });
    const res = await fetch(`${f.sandbox.url}/v1/payment_intents/pi_x`);
    expect(res.status).toBe(401);
    expect(await res.json()).toMatchObject({ error: { type: 'invalid_request_error' } });
  });

  it('lets the browser retrieve a PaymentIntent with its client secret, without metadata', async () => {
    const pi = await createBookingPayment(f.stripe);
    const url = `${f.sandbox.url}/v1/payment_intents/${pi.id}?client_secret=${pi.client_secret}`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${f.sandbox.publishableKey}` } });
    const body = (await res.json()) as Record<string, unknown>;
    expect(res.status).toBe(200);
    expect(body).toMatchObject({ id: pi.id, status: 'requires_payment_method' });
    expect(body.metadata).toBeUndefined();
    const bad = await fetch(`${f.sandbox.url}/v1/payment_intents/${pi.id}?client_secret=nope`, {
      headers: { authorization: `Bearer ${f.sandbox.publishableKey}` },
    });
    expect(bad.status).toBe(400);
  });

  it('expands latest_charge', async () => {
    const pi = await createBookingPayment(f.stripe);
    await f.stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' });
    const expanded = await f.stripe.paymentIntents.retrieve(pi.id, { expand: ['latest_charge'] });
    expect(expanded.latest_charge).toMatchObject({
      object: 'charge',
      status: 'succeeded',
      amount: 7_500,
      payment_intent: pi.id,
    });
  });
});
