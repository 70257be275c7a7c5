import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/db/schema/mail';
import { freePort } from '../../src/dev/free-port';
import { startSmtpCatcher, type SmtpCatcher } from '../../src/dev/smtp-catcher';
import { createOutboxJob } from '../../src/jobs/outbox.job';
import { ManualClock } from '../../src/lib/clock';
import { retryDelayMs } from '../../src/modules/mail/outbox.service';
import { createCustomer } from '../helpers/customers';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { basketFor, holdAndCart, injectCall, seedSessions } from './booking-flow';

/**
 * SMTP down while customers book and cancel: no request fails, the outbox keeps every mail and
 * retries with backoff, and once the server is back each mail arrives exactly once.
 * (Backoff arithmetic, give-up and overlapping senders are in platform-mail.test.ts.)
 */
describe('fault: SMTP down', () => {
  let sandbox: StripeSandbox;
  let t: TestApp;
  let catcher: SmtpCatcher | null = null;
  let port: number;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    t = await createTestApp(s.env, clock);
    await listenForWebhooks(t.app, sandbox);
    port = await freePort();
  });
  afterAll(async () => {
    await catcher?.stop();
    await t?.close();
    await sandbox?.stop();
  });

  it(
    'booking, paying and cancelling all succeed with SMTP down; the mails wait, back off, and arrive once when it ' +
      'is back',
    async () => {
      const call = injectCall(t.app);
      const [slotId] = await seedSessions(t.db, clock.now(), 1);
      const who = await createCustomer(t.db, t.app.idTokens);
      const job = createOutboxJob(t.app, { smtpUrl: `smtp://127.0.0.1:${port}` })!;

      const flow = await holdAndCart(call, who, slotId!, await basketFor(t.db));
      const checkout = await call('POST', flow.checkoutUrl, who, { cartId: flow.cartId });
      expect(checkout.status).toBe(201);
      expect((await payWithCard(sandbox, checkout.body.client_secret as string, CARDS.success)).status).toBe(
        'succeeded',
      );
      await sandbox.webhooksIdle();
      expect(sandbox.webhookAttempts().every((a) => a.ok)).toBe(true);
      const cancel = await call('POST', `/api/v1/bookings/${checkout.body.bookingId}/cancel`, who, {});
      expect(cancel.status).toBe(200);

      await job.run();
      const queued = () => t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, who.email));
      let rows = await queued();
      expect(rows.map((r) => r.subject.split(':')[0]).sort()).toEqual(['Booked', 'Cancelled']);
      expect(
        rows.every(
          (r) => r.status === 'pending' && r.attempts === 1 && /ECONNREFUSED|connect/i.test(r.lastError ?? ''),
        ),
      ).toBe(true);

      // Still down at the first retry: the next one waits longer.
      clock.advance(retryDelayMs(1));
      await job.run();
      rows = await queued();
      expect(rows.every((r) => r.status === 'pending' && r.attempts === 2)).toBe(true);
      expect(rows.every((r) => r.nextAttemptAt.getTime() - clock.now().getTime() === retryDelayMs(2))).toBe(true);

      catcher = await startSmtpCatcher(t.databaseUrl, { port });
      await job.run();
      expect((await queued()).every((r) => r.status === 'pending')).toBe(true);
      clock.advance(retryDelayMs(2));
      await job.run();
      await job.run();
      rows = await queued();
      expect(rows.every((r) => r.status === 'sent' && r.attempts === 3)).toBe(true);
      const received = await t.db.execute<{ subject: string; n: number }>(
        sql`select subject, count(*)::int as n from dev_mailbox where to_address = ${who.email} group by subject`,
      );
      expect(received.rows).toHaveLength(2);
      expect(received.rows.every((r) => r.n === 1)).toBe(true);
      job.close();
    },
  );
});
