import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Stripe from 'stripe';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { confirmCardPayment, TEST_CARDS } from '../src/card-payment.client';
import { readSnapshot, snapshotKeys } from '../src/sandbox-persistence';
import { createStripeSandbox, sandboxKeys } from '../src/stripe-sandbox';
import { createBookingPayment } from './sandbox-fixture';

const dir = mkdtempSync(path.join(tmpdir(), 'kringle-sandbox-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** As `npm start` runs it: the state file in the data folder, the keys from it when it exists. */
async function start(stateFile: string) {
  const sandbox = createStripeSandbox({ ...(snapshotKeys(stateFile) ?? sandboxKeys()), stateFile });
  await sandbox.start();
  const stripe = new Stripe(sandbox.secretKey, { ...sandbox.stripeClientOptions(), maxNetworkRetries: 0 });
  return { sandbox, stripe };
}

describe('the sandbox keeps its state across restarts when given a state file', () => {
  it('an intent created before a restart can be read, paid and refunded after it', async () => {
    const file = path.join(dir, 'stripe-sandbox.json');
    const first = await start(file);
    const unpaid = await createBookingPayment(first.stripe, 4_995, 'order-1-intent');
    await first.sandbox.stop();
    expect(existsSync(file)).toBe(true);
    expect(readdirTemporaries(dir)).toEqual([]);

    const second = await start(file);
    try {
      expect(second.sandbox.secretKey).toBe(first.sandbox.secretKey);
      const again = await second.stripe.paymentIntents.retrieve(unpaid.id);
      expect(again).toMatchObject({ id: unpaid.id, status: 'requires_payment_method', amount: 4_995 });
      // The same idempotency key still answers the same intent, as at Stripe within 24 h.
      expect((await createBookingPayment(second.stripe, 4_995, 'order-1-intent')).id).toBe(unpaid.id);
      const paid = await confirmCardPayment({
        sandboxUrl: second.sandbox.url,
        publishableKey: second.sandbox.publishableKey,
        clientSecret: unpaid.client_secret!,
        card: { number: TEST_CARDS.success },
        returnUrl: 'http://localhost:3000/payment/return',
      });
      expect(paid.body).toMatchObject({ id: unpaid.id, status: 'succeeded' });
      const refund = await second.stripe.refunds.create({ payment_intent: unpaid.id });
      expect(refund.status).toBe('succeeded');
    } finally {
      await second.sandbox.stop();
    }

    const third = await start(file);
    try {
      expect((await third.stripe.paymentIntents.retrieve(unpaid.id)).status).toBe('succeeded');
      expect(
        third.sandbox.events('charge.refunded').length + third.sandbox.events('refund.created').length,
      ).toBeGreaterThan(0);
    } finally {
      await third.sandbox.stop();
    }
  });

  it('without a state file an unknown intent is resource_missing (what the API must treat as permanent)', async () => {
    const sandbox = createStripeSandbox(sandboxKeys());
    await sandbox.start();
    const stripe = new Stripe(sandbox.secretKey, { ...sandbox.stripeClientOptions(), maxNetworkRetries: 0 });
    try {
      await expect(stripe.paymentIntents.retrieve('pi_gone_after_restart')).rejects.toMatchObject({
        type: 'StripeInvalidRequestError',
        code: 'resource_missing',
        statusCode: 404,
      });
    } finally {
      await sandbox.stop();
    }
  });

  it('refuses a state file written with other keys rather than mixing two accounts', async () => {
    const file = path.join(dir, 'other.json');
    const first = await start(file);
    await first.sandbox.stop();
    expect(() => createStripeSandbox({ ...sandboxKeys(), stateFile: file })).toThrow(/other keys/);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 1 });
  });
});

describe('the state file is written before the answer, and a failed write is one 500 (issue 36)', () => {
  it('a payment the client was told about is on disk at once, with no stop and no delay', async () => {
    const file = path.join(dir, 'at-once.json');
    const { sandbox, stripe } = await start(file);
    try {
      const intent = await createBookingPayment(stripe, 2_500, 'at-once-intent');
      const paid = await confirmCardPayment({
        sandboxUrl: sandbox.url,
        publishableKey: sandbox.publishableKey,
        clientSecret: intent.client_secret!,
        card: { number: TEST_CARDS.success },
        returnUrl: 'http://localhost:3000/payment/return',
      });
      expect(paid.body).toMatchObject({ status: 'succeeded' });
      // Before: written up to 200 ms later, so a crash just after the answer lost the payment.
      const onDisk = new Map(readSnapshot(file)!.paymentIntents);
      expect(onDisk.get(intent.id)).toMatchObject({ status: 'succeeded' });
    } finally {
      await sandbox.stop();
    }
  });

  it('a write that fails answers that request 500 api_error and the sandbox keeps serving', async () => {
    const file = path.join(dir, 'unwritable.json');
    const { sandbox, stripe } = await start(file);
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      // A folder where the file goes: the rename over it fails.
      rmSync(file);
      mkdirSync(path.join(file, 'blocker'), { recursive: true });
      await expect(createBookingPayment(stripe, 1_000, 'fails-to-save')).rejects.toMatchObject({
        type: 'StripeAPIError',
        statusCode: 500,
      });
      expect(errors).toHaveBeenCalledWith(expect.stringContaining('could not write'));
      rmSync(file, { recursive: true });
      expect((await createBookingPayment(stripe, 1_000, 'saves-again')).status).toBe('requires_payment_method');
      expect(existsSync(file)).toBe(true);
    } finally {
      errors.mockRestore();
      await sandbox.stop();
    }
  });
});

function readdirTemporaries(folder: string): string[] {
  return readdirSync(folder).filter((f) => f.endsWith('.tmp'));
}
