import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reconcilePayments } from '../../src/modules/payments/payment-reconciliation.service';
import { CARDS, payWithCard } from '../helpers/payments';
import { voucherDay, type VoucherDay } from './voucher-fixtures';

/**
 * A gift voucher paid while its webhook never came (decision 0112): the reconciliation job reads the
 * PaymentIntent after the grace period and sells the voucher as the webhook would, once; the late
 * webhook and a redelivery then change nothing.
 */
describe('a gift voucher whose payment webhook was lost', () => {
  let d: VoucherDay;
  beforeAll(async () => {
    d = await voucherDay();
  });
  afterAll(async () => d?.close());

  it('is sold by the reconciliation job after the grace period, once, e-mails and all', async () => {
    const { w, sandbox } = d;
    const buyer = await d.family('Unheard');
    const res = await w.call('POST', '/vouchers', buyer, {
      amountCents: 4000,
      recipientName: 'Ruby',
      recipientEmail: 'unheard-ruby@kringle.test',
    });
    expect(res.statusCode, res.body).toBe(201);
    const { voucherOrderId: id, client_secret } = res.json();
    sandbox.pauseWebhooks();
    try {
      expect((await payWithCard(sandbox, client_secret, CARDS.success)).status).toBe('succeeded');
      const status = async () =>
        (await w.call('GET', '/vouchers', buyer)).json().items.find((v: { id: string }) => v.id === id).status;
      await reconcilePayments(w.t.app);
      expect(await status()).toBe('pending');

      w.clock.advance(w.t.app.config.PAYMENT_RECONCILE_GRACE_SECONDS * 1000);
      await reconcilePayments(w.t.app);
      expect(await status()).toBe('active');
    } finally {
      sandbox.resumeWebhooks();
    }
    await sandbox.webhooksIdle();
    const event = sandbox
      .events('payment_intent.succeeded')
      .find((e) => (e.data.object as unknown as { id: string }).id === client_secret.split('_secret_')[0]);
    expect((await sandbox.redeliver(event!.id)).status).toBe(200);
    await reconcilePayments(w.t.app);

    const entries = await w.t.db.execute(sql`select reason, cents from voucher_entries where voucher_id = ${id}::uuid`);
    expect(entries.rows).toEqual([{ reason: 'sold', cents: 4000 }]);
    // One recipient's e-mail and one buyer's confirmation: not one more for the redelivered webhook.
    const mails = await w.t.db.execute(
      sql`select subject from mail_outbox where to_address in (${buyer.email}, 'unheard-ruby@kringle.test')
          order by subject`,
    );
    expect(mails.rows.map((m) => m.subject)).toEqual([
      expect.stringMatching(/gave you a visit to Santa$/),
      'Your gift voucher for Ruby',
    ]);
    const row = await w.t.db.execute(sql`select status, reconcile_at from vouchers where id = ${id}::uuid`);
    expect(row.rows[0]).toEqual({ status: 'paid', reconcile_at: null });
  });
});
