import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ManualClock } from '../../src/lib/clock';
import { settleLapsedCheckouts } from '../../src/modules/payments/unpaid-checkouts.service';
import { createCustomer, reauthenticate, type TestCustomer } from '../helpers/customers';
import { CARDS, payWithCard } from '../helpers/payments';
import type { TestApp } from '../helpers/test-app';
import { checkoutWorld, type CheckoutWorld } from './checkout-fixtures';

const MINUTE = 60_000;

/**
 * A checkout's payment as Stripe reports it: webhooks repeated, out of order or forged, and a payment
 * that lands after the hold lapsed (confirmed while the session is free, refunded once it is not).
 */
describe('checkout payments from the webhook', () => {
  let w: CheckoutWorld;
  let t: TestApp;
  let sandbox: StripeSandbox;
  let clock: ManualClock;

  beforeAll(async () => {
    w = await checkoutWorld();
    ({ t, sandbox, clock } = w);
  });
  afterAll(async () => w?.close());

  const checkout = (who: TestCustomer) => w.checkout(who);
  const holdNew = (who: TestCustomer, slotId?: string) => w.holdNew(who, slotId);
  const bookingRow = (id: string) => w.bookingRow(id);
  const orderRow = (id: string) => w.orderRow(id);
  const slotRow = (id: string) => w.slotRow(id);
  const mailsTo = (email: string) => w.mailsTo(email);

  it('applies duplicated and out-of-order webhooks once and in the right sense', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const { result } = await checkout(who);
    sandbox.pauseWebhooks();
    await payWithCard(sandbox, result.client_secret, CARDS.declined);
    await payWithCard(sandbox, result.client_secret, CARDS.success);
    const pi = result.client_secret.split('_secret_')[0]!;
    const ofIntent = (type: string) =>
      sandbox.events(type).filter((e) => (e.data.object as unknown as { id: string }).id === pi);
    // Success first, then the older failure, then the success again.
    await sandbox.redeliver(ofIntent('payment_intent.succeeded')[0]!.id);
    await sandbox.redeliver(ofIntent('payment_intent.payment_failed')[0]!.id);
    await sandbox.redeliver(ofIntent('payment_intent.succeeded')[0]!.id);
    sandbox.resumeWebhooks();
    await sandbox.webhooksIdle();
    expect((await bookingRow(result.bookingId)).status).toBe('completed');
    expect((await orderRow(result.orderId)).status).toBe('paid');
    expect((await mailsTo(who.email)).filter((m) => m.subject.startsWith('Booked:'))).toHaveLength(1);
  });

  it('refuses forged webhooks', async () => {
    const address = `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}/api/v1/webhooks/stripe`;
    const body = JSON.stringify({
      id: 'evt_forged',
      type: 'payment_intent.succeeded',
      data: { object: { id: 'pi_x', metadata: {} } },
    });
    const unsigned = await fetch(address, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    expect(unsigned.status).toBe(400);
    const badSig = await fetch(address, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'stripe-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
      },
      body,
    });
    expect(badSig.status).toBe(400);
    expect(await badSig.json()).toMatchObject({ code: 'BAD_REQUEST' });
  });

  it('confirms a payment that lands after the hold lapsed if the session is still free', async () => {
    const who = await createCustomer(t.db, t.app.idTokens);
    const { hold, result } = await checkout(who);
    sandbox.pauseWebhooks();
    await payWithCard(sandbox, result.client_secret, CARDS.success);
    clock.advance(11 * MINUTE);
    // The lapsed-checkout sweep reads the intent first: a paid one is confirmed, never cancelled.
    await settleLapsedCheckouts(t.app);
    expect((await bookingRow(result.bookingId)).status).toBe('completed');
    sandbox.resumeWebhooks();
    await sandbox.webhooksIdle();
    expect((await bookingRow(result.bookingId)).status).toBe('completed');
    expect((await slotRow(hold.slotId)).bookingId).toBe(result.bookingId);
    expect((await mailsTo(who.email)).map((m) => m.subject.split(':')[0])).toEqual(['Booked']);
    clock.set(new Date());
  });

  it('refunds at once a payment that lands after the session went to someone else', async () => {
    let late = await createCustomer(t.db, t.app.idTokens);
    const { hold, result } = await checkout(late);
    sandbox.pauseWebhooks();
    await payWithCard(sandbox, result.client_secret, CARDS.success);
    clock.advance(11 * MINUTE);
    const other = await createCustomer(t.db, t.app.idTokens);
    await holdNew(other, hold.slotId);
    sandbox.resumeWebhooks();
    await sandbox.webhooksIdle();
    expect((await bookingRow(result.bookingId)).status).toBe('cancelled');
    expect(await orderRow(result.orderId)).toMatchObject({ status: 'refunded', refundedCents: result.amountCents });
    expect(sandbox.events('charge.refunded').length).toBeGreaterThan(0);
    late = await reauthenticate(t.app.idTokens, late);
    const [mail] = await mailsTo(late.email);
    expect(mail!.subject).toMatch(/^Refund for/);
    clock.set(new Date());
  });
});
