import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stageDueEvidence } from '../../src/modules/disputes/disputes.service';
import { runPrivacyPurges } from '../../src/jobs/privacy-purges.job';
import { startFaultyProxy, type FaultyProxy } from '../helpers/faulty-proxy';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { checkOutClassic } from './checkout-fixture';
import { expectContractError } from '../security/security-fixtures';
import { createPerson, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';

/**
 * Disputes when Stripe cannot be reached (issue 56, decision 0105): the webhook still applies the
 * dispute and the job stages the draft later; a submission that cannot reach Stripe records nothing.
 * Then the address the payment came from is erased after PURCHASE_IP_DAYS.
 */
describe('disputes while Stripe is away', () => {
  let w: StaffDay;
  let sandbox: StripeSandbox;
  let proxy: FaultyProxy;
  let support: Person;

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    proxy = await startFaultyProxy(s.env.STRIPE_API_URL!);
    w = await staffDay({ ...s.env, STRIPE_API_URL: proxy.url });
    await listenForWebhooks(w.t.app, sandbox);
    support = await createPerson(
      w.t.db,
      true,
      { firstName: 'Sam', lastName: 'Support' },
      { role: 'support', mfaEnrolled: true },
    );
  });
  afterAll(async () => {
    await w?.t.close();
    await proxy?.close();
    await sandbox?.stop();
  });

  const row = async (orderId: string) =>
    (
      await w.t.db.execute(
        sql`select id, evidence_staged_at, submitted_at from disputes where order_id = ${orderId}::uuid`,
      )
    ).rows[0] as { id: string; evidence_staged_at: string | null; submitted_at: string | null } | undefined;

  it('the job stages the draft once Stripe is back; a submit that cannot reach it is 503, nothing kept', async () => {
    const { orderId, clientSecret: secret } = await checkOutClassic(w, w.family, w.sessions[0]!.id);
    proxy.failNext(100, 'POST /v1/disputes', 500);
    expect((await payWithCard(sandbox, secret, CARDS.dispute)).status).toBe('succeeded');
    await sandbox.webhooksIdle();
    const before = (await row(orderId))!;
    expect(before).toMatchObject({ evidence_staged_at: null, submitted_at: null });
    // The webhook was answered 200 all the same: delivered once, not retried.
    const deliveries = sandbox.events('charge.dispute.created');
    expect(deliveries.length).toBe(1);

    const submit = await w.call('POST', `/staff/disputes/${before.id}/submit`, support, {
      reason: 'The family attended its session',
    });
    expectContractError(submit, 503);
    expect((await row(orderId))!.submitted_at).toBeNull();
    const submitted = await w.t.db.execute(
      sql`select 1 from audit_entries where order_id = ${orderId}::uuid and action = 'dispute.submitted'`,
    );
    expect(submitted.rows).toEqual([]);

    expect(await stageDueEvidence(w.t.app)).toBe(0);
    proxy.heal();
    expect(await stageDueEvidence(w.t.app)).toBe(1);
    expect((await row(orderId))!.evidence_staged_at).not.toBeNull();
    const onStripe = await w.t.app.stripe!.disputes.retrieve(before.id);
    expect(onStripe.evidence_details).toMatchObject({ has_evidence: true, submission_count: 0 });
    expect(await stageDueEvidence(w.t.app)).toBe(0);

    // PURCHASE_IP_DAYS (180) after the payment, the address is gone; the rest of the order stays.
    const ip = async () =>
      (await w.t.db.execute(sql`select purchase_ip from orders where id = ${orderId}::uuid`)).rows[0]!.purchase_ip;
    expect(await ip()).toBe('127.0.0.1');
    w.clock.set(new Date(w.clock.now().getTime() + 179 * 86_400_000));
    await runPrivacyPurges(w.t.app);
    expect(await ip()).toBe('127.0.0.1');
    w.clock.set(new Date(w.clock.now().getTime() + 2 * 86_400_000));
    expect((await runPrivacyPurges(w.t.app)).purchaseIps).toBeGreaterThanOrEqual(1);
    expect(await ip()).toBeNull();
  });
});
