import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import { bookings, orders, refunds } from '../../src/db/schema/bookings';
import { slots } from '../../src/db/schema/catalogue';
import { mailOutbox } from '../../src/db/schema/mail';
import type { IdTokens } from '../../src/modules/accounts/id-tokens';
import { startApiProcesses, type ApiProcesses } from '../helpers/api-processes';
import { createCustomer } from '../helpers/customers';
import { CARDS, payWithCard, startSandbox } from '../helpers/payments';
import { basketFor, holdAndCart, httpCall, seedSessions, waitFor } from './booking-flow';
import { createProcessesDatabase } from '../helpers/processes-database';

/**
 * DESIGN.md "Nothing is lost": the API process dies (SIGKILL) after the customer checked out and
 * before the payment's webhook is applied; Stripe gives up delivering it. A fresh process starts,
 * and its reconciliation job confirms the booking from the PaymentIntent, once, with one
 * confirmation e-mail; the webhook redelivered afterwards changes nothing. (Several processes
 * reconciling at once: payment-reconciliation.test.ts.)
 */
describe('fault: the API killed between payment success and the booking write', () => {
  let db: Db;
  let closeDb: () => Promise<void>;
  let sandbox: StripeSandbox;
  let env: Record<string, string>;
  let idTokens: IdTokens;
  let first: ApiProcesses | null = null;
  let second: ApiProcesses | null = null;
  let sessions: string[];

  beforeAll(async () => {
    const conn = await createProcessesDatabase({ poolSize: 3 });
    ({ db, idTokens, close: closeDb } = conn);
    sessions = await seedSessions(db, new Date(), 5);
    const s = await startSandbox();
    sandbox = s.sandbox;
    env = {
      ...s.env,
      ...conn.env,
      PAYMENT_RECONCILE_GRACE_SECONDS: '1',
      PAYMENT_RECONCILE_INTERVAL_SECONDS: '1',
    };
    first = await startApiProcesses(1, env);
  }, 120_000);
  afterAll(async () => {
    await first?.stop();
    await second?.stop();
    await sandbox?.stop();
    await closeDb?.();
  });

  it(
    'a reconciliation job in the new process confirms the paid booking once; late webhooks stay ' + 'harmless',
    async () => {
      const who = await createCustomer(db, idTokens);
      sandbox.setWebhookUrl(`${first!.urls[0]}/api/v1/webhooks/stripe`);
      const call = httpCall(() => first!.urls[0]!);
      const flow = await holdAndCart(call, who, sessions[0]!, await basketFor(db));
      const checkout = await call('POST', flow.checkoutUrl, who, { cartId: flow.cartId });
      expect(checkout.status).toBe(201);
      const bookingId = checkout.body.bookingId as string;
      const orderId = checkout.body.orderId as string;

      await first!.kill(0);
      expect((await payWithCard(sandbox, checkout.body.client_secret as string, CARDS.success)).status).toBe(
        'succeeded',
      );
      // Stripe tries the dead endpoint until it gives up: nobody applied the payment.
      await sandbox.webhooksIdle();
      const succeeded = sandbox
        .events('payment_intent.succeeded')
        .find((e) => (e.data.object as unknown as { metadata: { orderId: string } }).metadata.orderId === orderId)!;
      const attempts = sandbox.webhookAttempts(succeeded.id);
      expect(attempts.length).toBeGreaterThan(0);
      expect(attempts.every((a) => !a.ok)).toBe(true);
      expect(sandbox.pendingWebhooks().map((e) => e.id)).not.toContain(succeeded.id);
      expect((await db.select().from(bookings).where(eq(bookings.id, bookingId)))[0]!.status).toBe('payment_pending');

      second = await startApiProcesses(1, env);
      // Confirmed and no further look due: since recordPayment clears the order's next look in the
      // confirming transaction, both become true together (CI once read between two statements).
      await waitFor(
        'the booking to be confirmed by reconciliation',
        async () => {
          const [booking] = await db.select().from(bookings).where(eq(bookings.id, bookingId));
          const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
          return booking!.status === 'completed' && order!.reconcileAt === null ? true : undefined;
        },
        30_000,
      );
      const confirmed = async () => {
        const [booking] = await db.select().from(bookings).where(eq(bookings.id, bookingId));
        const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
        const [slot] = await db.select().from(slots).where(eq(slots.id, booking!.slotId));
        const mails = await db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, who.email));
        expect(booking!.status).toBe('completed');
        expect(order).toMatchObject({ status: 'paid', reconcileAt: null });
        expect(slot!.bookingId).toBe(bookingId);
        expect(mails.map((m) => m.subject.split(':')[0])).toEqual(['Booked']);
        expect(await db.select().from(refunds).where(eq(refunds.bookingId, bookingId))).toEqual([]);
        return mails[0]!;
      };
      await confirmed();
      // The confirmation goes out by the outbox of the new processes.
      await waitFor(
        'the confirmation e-mail to be sent',
        async () => ((await confirmed()).status === 'sent' ? true : undefined),
        20_000,
      );

      // Stripe's late redelivery (twice) after the repair: accepted, and nothing changes.
      sandbox.setWebhookUrl(`${second.urls[0]}/api/v1/webhooks/stripe`);
      expect((await sandbox.redeliver(succeeded.id)).status).toBe(200);
      expect((await sandbox.redeliver(succeeded.id)).status).toBe(200);
      await confirmed();
      const mine = await httpCall(() => second!.urls[0]!)('GET', `/api/v1/bookings/${bookingId}`, who);
      expect(mine.body).toMatchObject({ status: 'completed' });
    },
    120_000,
  );
});
