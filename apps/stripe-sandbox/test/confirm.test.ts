import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerThreeDSecure, confirmCardPayment, TEST_CARDS, type CardInput } from '../src/card-payment.client';
import { createBookingPayment, startFixture, type Fixture } from './sandbox-fixture';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(() => f.close());

const RETURN_URL = 'http://localhost:5173/payment/return?step=payment';

async function payWith(card: CardInput, returnUrl = RETURN_URL) {
  const pi = await createBookingPayment(f.stripe);
  const res = await confirmCardPayment({
    sandboxUrl: f.sandbox.url,
    publishableKey: f.sandbox.publishableKey,
    clientSecret: pi.client_secret!,
    card,
    returnUrl,
  });
  return { pi, res };
}

/** Webhook types that reached the receiver for one PaymentIntent. */
async function deliveredFor(piId: string): Promise<string[]> {
  await f.sandbox.webhooksIdle();
  return f.receiver.received
    .map((r) => JSON.parse(r.body) as Stripe.Event)
    .filter(
      (e) =>
        (e.data.object as { id: string; payment_intent?: string }).id === piId ||
        (e.data.object as { payment_intent?: string }).payment_intent === piId,
    )
    .map((e) => e.type);
}

describe('the browser confirm call (API.md) with each test card', () => {
  it('4242 4242 4242 4242 succeeds with a charge and payment_intent.succeeded', async () => {
    const { pi, res } = await payWith({ number: TEST_CARDS.success });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      id: pi.id,
      object: 'payment_intent',
      status: 'succeeded',
      amount_received: 7_500,
      last_payment_error: null,
    });
    expect(res.body.latest_charge).toMatch(/^ch_/);
    expect(res.body.metadata).toBeUndefined();
    const charge = f.sandbox.charge(res.body.latest_charge as string)!;
    expect(charge).toMatchObject({
      status: 'succeeded',
      paid: true,
      payment_intent: pi.id,
      metadata: { bookingId: 'b_1' },
    });
    expect(charge.payment_method_details.card).toMatchObject({ brand: 'visa', last4: '4242' });
    expect(await deliveredFor(pi.id)).toEqual(
      expect.arrayContaining(['payment_intent.created', 'charge.succeeded', 'payment_intent.succeeded']),
    );
    expect((await f.stripe.paymentIntents.retrieve(pi.id)).status).toBe('succeeded');
  });

  it.each([
    [TEST_CARDS.declined, 'card_declined', 'generic_decline', 'Your card was declined.'],
    [TEST_CARDS.insufficientFunds, 'card_declined', 'insufficient_funds', 'Your card has insufficient funds.'],
    ['4000 0000 0000 0069', 'expired_card', 'expired_card', 'Your card has expired.'],
  ])(
    '%s is declined (%s / %s) and payment_intent.payment_failed is delivered',
    async (number, code, declineCode, message) => {
      const { pi, res } = await payWith({ number });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'requires_payment_method',
        last_payment_error: { type: 'card_error', code, decline_code: declineCode, message },
      });
      expect(await deliveredFor(pi.id)).toEqual(
        expect.arrayContaining(['charge.failed', 'payment_intent.payment_failed']),
      );
      expect(await deliveredFor(pi.id)).not.toContain('payment_intent.succeeded');
    },
  );

  it('lets the customer retry with another card after a decline', async () => {
    const { pi } = await payWith({ number: TEST_CARDS.declined });
    const retry = await confirmCardPayment({
      sandboxUrl: f.sandbox.url,
      publishableKey: f.sandbox.publishableKey,
      clientSecret: pi.client_secret!,
      card: { number: TEST_CARDS.success },
    });
    expect(retry.body).toMatchObject({ status: 'succeeded', last_payment_error: null });
    const again = await confirmCardPayment({
      sandboxUrl: f.sandbox.url,
      publishableKey: f.sandbox.publishableKey,
      clientSecret: pi.client_secret!,
      card: { number: TEST_CARDS.success },
    });
    expect(again.status).toBe(400);
    expect(again.body.error).toMatchObject({ type: 'invalid_request_error', code: 'payment_intent_unexpected_state' });
  });

  it.each([
    [{ number: '4242 4242 4242 4241' }, 'incorrect_number', 'payment_method_data[card][number]'],
    [{ number: '4242' }, 'invalid_number', 'payment_method_data[card][number]'],
    [{ number: TEST_CARDS.success, expMonth: 13 }, 'invalid_expiry_month', 'payment_method_data[card][exp_month]'],
    [
      { number: TEST_CARDS.success, expMonth: 1, expYear: 2020 },
      'invalid_expiry_year',
      'payment_method_data[card][exp_year]',
    ],
    [{ number: TEST_CARDS.success, cvc: '12' }, 'invalid_cvc', 'payment_method_data[card][cvc]'],
  ])('refuses bad card data %j with a 402 card_error %s', async (card, code, param) => {
    const { pi, res } = await payWith(card);
    expect(res.status).toBe(402);
    expect(res.body.error).toMatchObject({
      type: 'card_error',
      code,
      param,
      payment_intent: { id: pi.id, status: 'requires_payment_method' },
    });
    expect(await deliveredFor(pi.id)).toEqual(['payment_intent.created']);
  });

  it('refuses an expiry month already past this year', async () => {
    const now = new Date();
    if (now.getUTCMonth() === 0) return; // January: no earlier month this year
    const { res } = await payWith({
      number: TEST_CARDS.success,
      expMonth: now.getUTCMonth(),
      expYear: now.getUTCFullYear(),
    });
    expect(res.body.error).toMatchObject({ code: 'invalid_expiry_month' });
  });

  it('refuses a wrong client_secret and a secret-only call with the publishable key', async () => {
    const pi = await createBookingPayment(f.stripe);
    const res = await confirmCardPayment({
      sandboxUrl: f.sandbox.url,
      publishableKey: f.sandbox.publishableKey,
      clientSecret: `${pi.id}_secret_wrong`,
      card: { number: TEST_CARDS.success },
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ param: 'client_secret' });
    expect((await f.stripe.paymentIntents.retrieve(pi.id)).status).toBe('requires_payment_method');
  });

  it('answers CORS for localhost origins only', async () => {
    const preflight = await fetch(`${f.sandbox.url}/v1/payment_intents/pi_x/confirm`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:5173',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'authorization,content-type',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
    expect(preflight.headers.get('access-control-allow-headers')).toMatch(/Authorization/);
    const foreign = await fetch(`${f.sandbox.url}/v1/payment_intents/pi_x/confirm`, {
      method: 'OPTIONS',
      headers: { origin: 'https://evil.example' },
    });
    expect(foreign.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('with the secret key, a decline is a StripeCardError as on Stripe', async () => {
    const pi = await createBookingPayment(f.stripe);
    const err = await f.stripe.paymentIntents
      .confirm(pi.id, { payment_method: 'pm_card_chargeDeclinedInsufficientFunds' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Stripe.errors.StripeCardError);
    expect(err).toMatchObject({ code: 'card_declined', decline_code: 'insufficient_funds', statusCode: 402 });
    expect((err as Stripe.errors.StripeCardError).payment_intent).toMatchObject({
      id: pi.id,
      status: 'requires_payment_method',
    });
  });
});

describe('3-D Secure (4000 0025 0000 3155)', () => {
  it('asks for authentication, then Approve completes the payment and returns like Stripe', async () => {
    const { pi, res } = await payWith({ number: TEST_CARDS.threeDSecure });
    expect(res.body).toMatchObject({
      status: 'requires_action',
      next_action: { type: 'redirect_to_url', redirect_to_url: { return_url: RETURN_URL } },
    });
    const pageUrl = res.body.next_action.redirect_to_url.url as string;
    expect(pageUrl.startsWith(f.sandbox.publicUrl)).toBe(true);
    const page = await fetch(pageUrl);
    const html = await page.text();
    expect(html).toContain('<h1>Test bank — 3-D Secure</h1>');
    expect(html).toContain('name="viewport"');
    expect(html).toMatch(/\$75\.00 AUD/);
    expect(await deliveredFor(pi.id)).toContain('payment_intent.requires_action');
    expect(await deliveredFor(pi.id)).not.toContain('payment_intent.succeeded');

    const location = new URL((await answerThreeDSecure(pageUrl, 'approve'))!);
    expect(`${location.origin}${location.pathname}`).toBe('http://localhost:5173/payment/return');
    expect(Object.fromEntries(location.searchParams)).toEqual({
      step: 'payment',
      payment_intent: pi.id,
      payment_intent_client_secret: pi.client_secret,
      redirect_status: 'succeeded',
    });
    const paid = await f.stripe.paymentIntents.retrieve(pi.id, { expand: ['latest_charge'] });
    expect(paid.status).toBe('succeeded');
    expect((paid.latest_charge as Stripe.Charge).payment_method_details?.card?.three_d_secure).toMatchObject({
      result: 'authenticated',
    });
    expect(await deliveredFor(pi.id)).toContain('payment_intent.succeeded');
    // The page cannot be answered twice.
    const again = await fetch(pageUrl, {
      method: 'POST',
      body: new URLSearchParams({ decision: 'fail' }),
      redirect: 'manual',
    });
    expect(await again.text()).toContain('no longer waits');
    expect((await f.stripe.paymentIntents.retrieve(pi.id)).status).toBe('succeeded');
  });

  it('Fail leaves the PaymentIntent retryable with payment_intent_authentication_failure', async () => {
    const { pi, res } = await payWith({ number: TEST_CARDS.threeDSecure });
    const location = new URL((await answerThreeDSecure(res.body.next_action.redirect_to_url.url as string, 'fail'))!);
    expect(location.searchParams.get('redirect_status')).toBe('failed');
    const failed = await f.stripe.paymentIntents.retrieve(pi.id);
    expect(failed).toMatchObject({
      status: 'requires_payment_method',
      last_payment_error: { code: 'payment_intent_authentication_failure' },
    });
    expect(await deliveredFor(pi.id)).toContain('payment_intent.payment_failed');
  });

  it('a cancelled PaymentIntent can no longer be approved', async () => {
    const { pi, res } = await payWith({ number: TEST_CARDS.threeDSecure });
    await f.stripe.paymentIntents.cancel(pi.id);
    const pageUrl = res.body.next_action.redirect_to_url.url as string;
    expect(await (await fetch(pageUrl)).text()).toContain('no longer waits');
    const post = await fetch(pageUrl, {
      method: 'POST',
      body: new URLSearchParams({ decision: 'approve' }),
      redirect: 'manual',
    });
    expect(post.status).toBe(200);
    expect((await f.stripe.paymentIntents.retrieve(pi.id)).status).toBe('canceled');
  });

  it('a new amount or a new confirmation voids the pending challenge', async () => {
    const { pi, res } = await payWith({ number: TEST_CARDS.threeDSecure });
    const updated = await f.stripe.paymentIntents.update(pi.id, { amount: 8_000 });
    expect(updated).toMatchObject({ status: 'requires_payment_method', next_action: null });
    expect(await (await fetch(res.body.next_action.redirect_to_url.url as string)).text()).toContain('no longer waits');

    const second = await confirmCardPayment({
      sandboxUrl: f.sandbox.url,
      publishableKey: f.sandbox.publishableKey,
      clientSecret: pi.client_secret!,
      card: { number: TEST_CARDS.threeDSecure },
    });
    const paid = await confirmCardPayment({
      sandboxUrl: f.sandbox.url,
      publishableKey: f.sandbox.publishableKey,
      clientSecret: pi.client_secret!,
      card: { number: TEST_CARDS.success },
    });
    expect(paid.body).toMatchObject({ status: 'succeeded', amount_received: 8_000 });
    expect(
      await answerThreeDSecure(second.body.next_action.redirect_to_url.url as string, 'fail').catch(
        (e: Error) => e.message,
      ),
    ).toMatch(/No fail button/);
    expect((await f.stripe.paymentIntents.retrieve(pi.id)).status).toBe('succeeded');
  });

  it('events caused by the bank page carry no API request id', async () => {
    const { pi, res } = await payWith({ number: TEST_CARDS.threeDSecure });
    await answerThreeDSecure(res.body.next_action.redirect_to_url.url as string, 'approve');
    const succeeded = f.sandbox.events('payment_intent.succeeded').find((e) => e.data.object.id === pi.id)!;
    expect(succeeded.request).toEqual({ id: null, idempotency_key: null });
    const requiresAction = f.sandbox.events('payment_intent.requires_action').find((e) => e.data.object.id === pi.id)!;
    expect(requiresAction.request.id).toMatch(/^req_/);
  });

  it('without a return_url the page ends with a message instead of a redirect', async () => {
    const pi = await createBookingPayment(f.stripe);
    const confirmed = await f.stripe.paymentIntents.confirm(pi.id, {
      payment_method: 'pm_card_authenticationRequired',
    });
    expect(confirmed.status).toBe('requires_action');
    expect(await answerThreeDSecure(confirmed.next_action!.redirect_to_url!.url!, 'approve')).toBeNull();
    expect((await f.stripe.paymentIntents.retrieve(pi.id)).status).toBe('succeeded');
  });
});
