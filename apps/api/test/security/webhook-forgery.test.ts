import { eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings } from '../../src/db/schema/bookings';
import { createCustomer } from '../helpers/customers';
import { CARDS, payWithCard } from '../helpers/payments';
import { bookingWorld, expectContractError, stateChecksum, type BookingWorld } from './security-fixtures';

/** Stripe's default signature tolerance (stripe-node `constructEvent`), which the route keeps. */
const TOLERANCE_SECONDS = 300;

/**
 * ASVS 13.x / 10.x: POST /webhooks/stripe believes only what the webhook secret signed, recently.
 * A real `payment_intent.succeeded` from the sandbox is held back and then sent by hand: forged,
 * tampered, signed with another secret or too old it is refused with 400 and changes nothing;
 * sent properly, twice, it is applied once. (Duplicates and out-of-order deliveries by the
 * sandbox itself are in test/checkout.test.ts.)
 */
describe('Stripe webhook forgery and replay', () => {
  let w: BookingWorld;
  let payload: string;
  let bookingId: string;
  const stripe = new Stripe('sk_test_unused');

  beforeAll(async () => {
    w = await bookingWorld();
    const who = await createCustomer(w.t.db, w.t.app.idTokens);
    const booked = await w.book(who);
    bookingId = booked.bookingId;
    w.sandbox.pauseWebhooks();
    expect((await payWithCard(w.sandbox, booked.clientSecret, CARDS.success)).status).toBe('succeeded');
    const intentId = booked.clientSecret.split('_secret_')[0]!;
    const event = w.sandbox
      .events('payment_intent.succeeded')
      .find((e) => (e.data.object as { id?: string }).id === intentId)!;
    payload = JSON.stringify(event);
  });
  afterAll(async () => w?.close());

  const now = () => Math.floor(Date.now() / 1000);
  const sign = (body: string, opts: { secret?: string; timestamp?: number } = {}) =>
    stripe.webhooks.generateTestHeaderString({
      payload: body,
      secret: opts.secret ?? w.sandbox.webhookSecret,
      timestamp: opts.timestamp ?? now(),
    });
  const deliver = (body: string, signature?: string, contentType = 'application/json') =>
    w.t.app.inject({
      method: 'POST',
      url: '/api/v1/webhooks/stripe',
      payload: body,
      headers: { 'content-type': contentType, ...(signature === undefined ? {} : { 'stripe-signature': signature }) },
    });
  const status = async () => (await w.t.db.select().from(bookings).where(eq(bookings.id, bookingId)))[0]!.status;

  it('refuses forged, tampered, wrongly signed and stale events with 400 and changes nothing', async () => {
    const before = await stateChecksum(w.t.app);
    const tampered = payload.replace(/"amount":(\d+)/, '"amount":1');
    expect(tampered).not.toBe(payload);
    const attempts: [string, () => Promise<Awaited<ReturnType<typeof deliver>>>][] = [
      ['no signature', () => deliver(payload)],
      ['an empty signature', () => deliver(payload, '')],
      ['a made-up signature', () => deliver(payload, `t=${now()},v1=${'0'.repeat(64)}`)],
      ['another secret', () => deliver(payload, sign(payload, { secret: 'whsec_not_the_right_one' }))],
      ['a tampered body under a valid signature', () => deliver(tampered, sign(payload))],
      ['a body with a trailing space', () => deliver(`${payload} `, sign(payload))],
      ['the signature of another timestamp', () => deliver(payload, sign(payload).replace(/^t=\d+/, `t=${now() - 1}`))],
      [
        `a valid signature ${TOLERANCE_SECONDS + 1} s old (replay outside the tolerance)`,
        () => deliver(payload, sign(payload, { timestamp: now() - TOLERANCE_SECONDS - 1 })),
      ],
      ['a valid signature a day old', () => deliver(payload, sign(payload, { timestamp: now() - 86_400 }))],
      ['only a v0 scheme', () => deliver(payload, sign(payload).replace('v1=', 'v0='))],
      ['a text/plain body', () => deliver(payload, sign(payload), 'text/plain')],
    ];
    for (const [name, attempt] of attempts) {
      const res = await attempt();
      expect(res.statusCode, name).toBe(400);
      expectContractError(res, 400);
    }
    expect(await status()).toBe('payment_pending');
    expect(await stateChecksum(w.t.app)).toEqual(before);
  });

  it('applies a validly signed event once, however often it is replayed within the tolerance', async () => {
    const signature = sign(payload);
    const first = await deliver(payload, signature);
    expect(first.statusCode, first.body).toBe(200);
    expect(await status()).toBe('completed');
    const after = await stateChecksum(w.t.app);
    for (let i = 0; i < 3; i++) expect((await deliver(payload, signature)).statusCode).toBe(200);
    expect((await deliver(payload, sign(payload, { timestamp: now() - 60 }))).statusCode).toBe(200);
    expect(await stateChecksum(w.t.app)).toEqual(after);
    // And the sandbox's own delivery of the same event, held back until now (with the other
    // events of that payment, which are recorded but change nothing a customer owns).
    w.sandbox.resumeWebhooks();
    await w.sandbox.webhooksIdle();
    const { stripe_events: _events, ...rest } = await stateChecksum(w.t.app);
    const { stripe_events: _before, ...restBefore } = after;
    expect(rest).toEqual(restBefore);
  });
});
