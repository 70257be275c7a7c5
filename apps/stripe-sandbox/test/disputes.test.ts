import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Dispute } from '../src/stripe-objects';
import { createBookingPayment, startFixture, type Fixture } from './sandbox-fixture';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(() => f.close());

// The sandbox's object must be one the official SDK's type accepts (a compile-time check of its shape).
const asSdkDispute = (d: Dispute): Stripe.Dispute => d;

async function disputedPayment() {
  const pi = await createBookingPayment(f.stripe, 12_345);
  const paid = await f.stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_createDispute' });
  const { data } = await f.stripe.disputes.list({ payment_intent: pi.id });
  return { paid, dispute: data[0]! };
}

function disputeEvents(disputeId: string): Stripe.Event[] {
  return f.receiver.received
    .map((r) => f.stripe.webhooks.constructEvent(r.body, r.signature, f.sandbox.webhookSecret))
    .filter((e) => e.type.startsWith('charge.dispute.') && (e.data.object as Stripe.Dispute).id === disputeId);
}

describe('disputes', () => {
  it('the dispute card pays, then opens a fraudulent dispute with charge.dispute.created', async () => {
    const { paid, dispute } = await disputedPayment();
    expect(paid.status).toBe('succeeded');
    expect(dispute).toMatchObject({
      object: 'dispute',
      amount: 12_345,
      currency: 'aud',
      charge: paid.latest_charge,
      payment_intent: paid.id,
      reason: 'fraudulent',
      status: 'needs_response',
      evidence: { uncategorized_text: null, service_date: null },
      evidence_details: { has_evidence: false, submission_count: 0, past_due: false },
    });
    expect(dispute.id).toMatch(/^dp_/);
    expect(dispute.evidence_details.due_by! - dispute.created).toBe(7 * 86_400);
    expect(asSdkDispute(f.sandbox.dispute(dispute.id)!).id).toBe(dispute.id);
    expect((await f.stripe.charges.retrieve(paid.latest_charge as string)).disputed).toBe(true);
    await f.sandbox.webhooksIdle();
    expect(disputeEvents(dispute.id).map((e) => e.type)).toEqual(['charge.dispute.created']);
  });

  it('stages evidence with submit:false, submits it, and the test words close it as won', async () => {
    const { dispute } = await disputedPayment();
    const staged = await f.stripe.disputes.update(dispute.id, {
      evidence: {
        cancellation_policy_disclosure: 'Shown and accepted at checkout, version 2026-11.',
        service_date: '2026-12-10',
        customer_purchase_ip: '203.0.113.7',
      },
      submit: false,
    });
    expect(staged).toMatchObject({
      status: 'needs_response',
      evidence: { service_date: '2026-12-10', customer_purchase_ip: '203.0.113.7' },
      evidence_details: { has_evidence: true, submission_count: 0 },
    });
    const submitted = await f.stripe.disputes.update(dispute.id, {
      evidence: { uncategorized_text: 'Checked in at 10:02. winning_evidence' },
    });
    expect(submitted.status).toBe('won');
    expect(submitted.evidence).toMatchObject({ service_date: '2026-12-10', customer_purchase_ip: '203.0.113.7' });
    expect(submitted.evidence_details.submission_count).toBe(1);

    await f.sandbox.webhooksIdle();
    const events = disputeEvents(dispute.id);
    expect(events.map((e) => e.type)).toEqual([
      'charge.dispute.created',
      'charge.dispute.updated',
      'charge.dispute.updated',
      'charge.dispute.closed',
    ]);
    expect(events[1]!.data.previous_attributes).toMatchObject({ evidence_details: { has_evidence: false } });
    expect(events[2]!.data.previous_attributes).toMatchObject({ status: 'needs_response' });
    expect(events[3]!.data.previous_attributes).toEqual({ status: 'under_review' });

    await expect(f.stripe.disputes.update(dispute.id, { submit: true })).rejects.toMatchObject({
      type: 'StripeInvalidRequestError',
      statusCode: 400,
    });
  });

  it('losing evidence closes it as lost; under review, evidence cannot change; close accepts a dispute', async () => {
    const { dispute: a } = await disputedPayment();
    const review = await f.stripe.disputes.update(a.id, { evidence: { product_description: 'Santa photos' } });
    expect(review.status).toBe('under_review');
    await expect(
      f.stripe.disputes.update(a.id, { evidence: { product_description: 'changed' }, submit: false }),
    ).rejects.toMatchObject({ statusCode: 400 });
    expect((await f.stripe.disputes.retrieve(a.id)).evidence.product_description).toBe('Santa photos');

    const { dispute: b } = await disputedPayment();
    expect((await f.stripe.disputes.update(b.id, { evidence: { uncategorized_text: 'losing_evidence' } })).status).toBe(
      'lost',
    );
    const { dispute: c } = await disputedPayment();
    expect((await f.stripe.disputes.close(c.id)).status).toBe('lost');
    await expect(f.stripe.disputes.close(c.id)).rejects.toMatchObject({ statusCode: 400 });
  });

  it('refuses unknown evidence fields and unknown disputes as Stripe does', async () => {
    const { dispute } = await disputedPayment();
    await expect(
      f.stripe.disputes.update(dispute.id, {
        evidence: { favourite_colour: 'red' } as Stripe.DisputeUpdateParams.Evidence,
      }),
    ).rejects.toMatchObject({ code: 'parameter_unknown', param: 'evidence[favourite_colour]' });
    await expect(f.stripe.disputes.retrieve('dp_nope')).rejects.toMatchObject({ statusCode: 404 });
    expect((await f.stripe.disputes.retrieve(dispute.id)).evidence_details.has_evidence).toBe(false);
  });
});
