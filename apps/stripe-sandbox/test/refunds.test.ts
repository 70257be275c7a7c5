import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBookingPayment, startFixture, type Fixture } from './sandbox-fixture';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(() => f.close());

async function paidIntent(amount = 10_000) {
  const pi = await createBookingPayment(f.stripe, amount);
  return f.stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_visa' });
}

function chargeRefundedEvents(chargeId: string): Stripe.Event[] {
  return f.receiver.received
    .map((r) => f.stripe.webhooks.constructEvent(r.body, r.signature, f.sandbox.webhookSecret))
    .filter((e) => e.type === 'charge.refunded' && (e.data.object as Stripe.Charge).id === chargeId);
}

describe('refunds', () => {
  it('refunds in full by default and delivers charge.refunded with the charge', async () => {
    const pi = await paidIntent();
    const refund = await f.stripe.refunds.create(
      { payment_intent: pi.id, reason: 'requested_by_customer', metadata: { bookingId: 'b_1' } },
      { idempotencyKey: 'refund-b_1' },
    );
    expect(refund).toMatchObject({
      object: 'refund',
      amount: 10_000,
      currency: 'aud',
      charge: pi.latest_charge,
      payment_intent: pi.id,
      reason: 'requested_by_customer',
      status: 'succeeded',
      metadata: { bookingId: 'b_1' },
    });
    expect(refund.id).toMatch(/^re_/);
    expect((await f.stripe.refunds.retrieve(refund.id)).amount).toBe(10_000);
    const replay = await f.stripe.refunds.create(
      { payment_intent: pi.id, reason: 'requested_by_customer', metadata: { bookingId: 'b_1' } },
      { idempotencyKey: 'refund-b_1' },
    );
    expect(replay.id).toBe(refund.id);

    await f.sandbox.webhooksIdle();
    const [event] = chargeRefundedEvents(pi.latest_charge as string);
    expect(event!.data.object).toMatchObject({
      object: 'charge',
      amount: 10_000,
      amount_refunded: 10_000,
      refunded: true,
      payment_intent: pi.id,
    });
    expect(event!.data.previous_attributes).toEqual({ amount_refunded: 0, refunded: false });
    const charge = await f.stripe.charges.retrieve(pi.latest_charge as string);
    expect(charge).toMatchObject({ amount_refunded: 10_000, refunded: true });
  });

  it('refunds in parts and refuses more than what is left', async () => {
    const pi = await paidIntent();
    await f.stripe.refunds.create({ payment_intent: pi.id, amount: 2_500 });
    const over = await f.stripe.refunds.create({ payment_intent: pi.id, amount: 8_000 }).catch((e: unknown) => e);
    expect(over).toBeInstanceOf(Stripe.errors.StripeInvalidRequestError);
    expect(over).toMatchObject({ code: 'amount_too_large', param: 'amount', statusCode: 400 });
    expect((over as Error).message).toBe('Refund amount ($80.00) is greater than unrefunded amount on charge ($75.00)');
    const rest = await f.stripe.refunds.create({ payment_intent: pi.id });
    expect(rest.amount).toBe(7_500);
    await expect(f.stripe.refunds.create({ payment_intent: pi.id, amount: 1 })).rejects.toMatchObject({
      code: 'charge_already_refunded',
    });

    await f.sandbox.webhooksIdle();
    const events = chargeRefundedEvents(pi.latest_charge as string).map((e) => e.data.object as Stripe.Charge);
    expect(events.map((c) => [c.amount_refunded, c.refunded])).toEqual([
      [2_500, false],
      [10_000, true],
    ]);
  });

  it('refuses to refund a PaymentIntent that was not paid, or does not exist', async () => {
    const pi = await createBookingPayment(f.stripe);
    await expect(f.stripe.refunds.create({ payment_intent: pi.id })).rejects.toMatchObject({
      code: 'charge_not_refundable',
      statusCode: 400,
    });
    await expect(f.stripe.refunds.create({ payment_intent: 'pi_nope' })).rejects.toMatchObject({
      code: 'resource_missing',
      statusCode: 404,
    });
    await expect(f.stripe.refunds.retrieve('re_nope')).rejects.toMatchObject({ code: 'resource_missing' });
    await expect(f.stripe.refunds.create({ payment_intent: pi.id, amount: 0 })).rejects.toMatchObject({
      param: 'amount',
    });
  });
});
