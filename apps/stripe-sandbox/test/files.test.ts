import type Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeFile } from '../src/stripe-objects';
import { createBookingPayment, startFixture, type Fixture } from './sandbox-fixture';

let f: Fixture;
beforeAll(async () => {
  f = await startFixture();
});
afterAll(() => f.close());

// The sandbox's object must be one the official SDK's type accepts (a compile-time check of its shape).
const asSdkFile = (file: StripeFile): Stripe.File => file;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n');

describe('files (dispute evidence uploads)', () => {
  it("the SDK's files.create uploads a PDF (multipart); it reads back by id, and its bytes at /contents", async () => {
    const file = await f.stripe.files.create({
      purpose: 'dispute_evidence',
      file: { data: PDF, name: 'tax-invoice.pdf', type: 'application/pdf' },
    });
    expect(file).toMatchObject({ object: 'file', purpose: 'dispute_evidence', type: 'pdf', size: PDF.length });
    expect(file.id).toMatch(/^file_/);
    expect(file.filename).toBe('tax-invoice.pdf');
    expect(await f.stripe.files.retrieve(file.id)).toEqual(file);
    const contents = await fetch(file.url!, { headers: { authorization: `Bearer ${f.sandbox.secretKey}` } });
    expect(contents.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await contents.arrayBuffer()).equals(PDF)).toBe(true);
    expect((await fetch(file.url!)).status).toBe(401);
    asSdkFile(file as unknown as StripeFile);
  });

  it('refuses what is not a PDF, JPEG or PNG, an unknown purpose and a missing file', async () => {
    const bad = (params: Stripe.FileCreateParams) =>
      f.stripe.files.create(params).then(
        () => null,
        (e: Error) => e,
      );
    expect(
      await bad({
        purpose: 'dispute_evidence',
        file: { data: Buffer.from('hello'), name: 'a.txt', type: 'text/plain' },
      }),
    ).toMatchObject({ type: 'StripeInvalidRequestError', param: 'file' });
    expect(await bad({ purpose: 'selfie', file: { data: PDF, name: 'a.pdf', type: 'application/pdf' } })).toMatchObject(
      {
        type: 'StripeInvalidRequestError',
        param: 'purpose',
      },
    );
  });

  it("a dispute's file fields take an upload's id, never text or an unknown id", async () => {
    const pi = await createBookingPayment(f.stripe, 5_000);
    await f.stripe.paymentIntents.confirm(pi.id, { payment_method: 'pm_card_createDispute' });
    const dispute = (await f.stripe.disputes.list({ payment_intent: pi.id })).data[0]!;
    const refused = await f.stripe.disputes
      .update(dispute.id, { evidence: { receipt: 'Paid $50 by card' }, submit: false })
      .then(
        () => null,
        (e: Error) => e,
      );
    expect(refused).toMatchObject({ type: 'StripeInvalidRequestError', param: 'evidence[receipt]' });
    const file = await f.stripe.files.create({
      purpose: 'dispute_evidence',
      file: { data: PDF, name: 'tax-invoice.pdf', type: 'application/pdf' },
    });
    const staged = await f.stripe.disputes.update(dispute.id, { evidence: { receipt: file.id }, submit: false });
    expect(staged.evidence.receipt).toBe(file.id);
    expect(staged.status).toBe('needs_response');
  });
});
