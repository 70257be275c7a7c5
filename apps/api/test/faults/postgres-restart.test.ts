import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { eq, inArray, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../src/db/client';
import { bookings, orders } from '../../src/db/schema/bookings';
import { slots } from '../../src/db/schema/catalogue';
import { mailOutbox } from '../../src/db/schema/mail';
import { reservations } from '../../src/db/schema/reservations';
import { ManualClock } from '../../src/lib/clock';
import { reconcilePayments } from '../../src/modules/payments/payment-reconciliation.service';
import { createCustomer, createCustomers } from '../helpers/customers';
import { startFaultyProxy, type FaultyProxy } from '../helpers/faulty-proxy';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { startRestartablePostgres, type RestartablePostgres } from '../helpers/restartable-postgres';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { basketFor, holdAndCart, injectCall, seedSessions, waitFor, type Call } from './booking-flow';

const MINUTE = 60_000;

/**
 * PostgreSQL restarted under a running API (its own server: the shared test server is never
 * restarted). Requests in flight get a 503 with the API.md error body, never a hang or a crash;
 * the pool reconnects by itself; a hold or a checkout is whole or absent; lapsed holds free
 * their sessions; a retried checkout yields one order and one PaymentIntent.
 */
// Restarts take seconds on a loaded two-core box.
describe('fault: PostgreSQL restarts', { timeout: 60_000 }, () => {
  let server: RestartablePostgres;
  let sandbox: StripeSandbox;
  let proxy: FaultyProxy;
  let t: TestApp;
  let call: Call;
  let sessions: string[];
  let next = 0;
  let basket: Awaited<ReturnType<typeof basketFor>>;
  const clock = new ManualClock(new Date());

  beforeAll(async () => {
    server = await startRestartablePostgres();
    const s = await startSandbox();
    sandbox = s.sandbox;
    proxy = await startFaultyProxy(s.env.STRIPE_API_URL!);
    t = await createTestApp({ ...s.env, STRIPE_API_URL: proxy.url }, clock, undefined, { databaseUrl: server.url });
    await listenForWebhooks(t.app, sandbox);
    call = injectCall(t.app);
    sessions = await seedSessions(t.db, clock.now(), 60);
    basket = await basketFor(t.db);
  }, 60_000);
  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await sandbox?.stop();
    await server?.destroy();
  });

  /**
   * A second connection that takes a row lock, so an API transaction is provably in flight (waiting on it) when the
   * server goes.
   */
  async function blockRow(table: 'slots' | 'reservations', id: string) {
    const blocker = new pg.Client({ connectionString: server.url });
    blocker.on('error', () => {});
    await blocker.connect();
    await blocker.query('begin');
    await blocker.query(`select 1 from ${table} where id = $1 for update`, [id]);
    return {
      waiting: () =>
        waitFor('an API transaction waiting on the lock', async () =>
          (await blocker.query(`select count(*)::int as n from pg_locks where not granted`)).rows[0].n > 0
            ? true
            : undefined,
        ),
      close: () => blocker.end().catch(() => {}),
    };
  }

  const ready = () =>
    waitFor('the API to reach PostgreSQL again', async () =>
      (await call('GET', '/api/v1/ready')).status === 200 ? true : undefined,
    );
  /** No pooled client may stay checked out: a leaked one would shrink the pool for good and end in a hang. */
  const poolSettled = () =>
    waitFor(
      'the pool to settle',
      async () => (t.pool.totalCount === t.pool.idleCount && t.pool.waitingCount === 0 ? true : undefined),
      5_000,
    );

  it(
    'a hold in flight when PostgreSQL stops immediately: 503, no half hold, and the same API holds again once it is ' +
      'back',
    async () => {
      const who = await createCustomer(t.db, t.app.idTokens);
      const slotId = sessions[next++]!;
      const lock = await blockRow('slots', slotId);
      const inFlight = call('POST', '/api/v1/bookings/reservation', who, { slotId });
      await lock.waiting();
      await server.restart('immediate');
      await lock.close();
      const answer = await inFlight;
      expect(answer.status).toBe(503);
      expect(answer.retryAfter).toMatch(/^\d+$/);
      expect(answer.body).toMatchObject({ code: 'SERVICE_UNAVAILABLE', error: expect.any(String) });

      await ready();
      expect(await t.db.select().from(reservations).where(eq(reservations.userId, who.id))).toEqual([]);
      expect((await t.db.select().from(slots).where(eq(slots.id, slotId)))[0]!.holdReservationId).toBeNull();
      const again = await call('POST', '/api/v1/bookings/reservation', who, { slotId });
      expect(again.status).toBe(201);
      await poolSettled();
    },
  );

  it(
    'holds racing through a fast restart: each answer is 201 or 503, every hold is whole or absent, and lapsed ' +
      'holds free their sessions',
    async () => {
      const racers = await createCustomers(t.db, t.app.idTokens, 16);
      const targets = racers.map(() => sessions[next++]!);
      const attempts = racers.map((who, i) =>
        call('POST', '/api/v1/bookings/reservation', who, { slotId: targets[i]! }),
      );
      const restarted = server.restart('fast');
      const answers = await Promise.all(attempts);
      await restarted;
      expect(
        answers.every((a) => a.status === 201 || (a.status === 503 && a.body.code === 'SERVICE_UNAVAILABLE')),
      ).toBe(true);

      await ready();
      const holds = await t.db.select().from(reservations).where(inArray(reservations.slotId, targets));
      const held = await t.db.select().from(slots).where(inArray(slots.id, targets));
      // Whole or absent: a hold is a reservation and its slot pointing at it, never one without the other.
      for (const slot of held) {
        const mine = holds.filter((h) => h.slotId === slot.id && h.status === 'active');
        expect(mine.map((h) => h.id)).toEqual(slot.holdReservationId ? [slot.holdReservationId] : []);
      }
      answers.forEach((a, i) => {
        if (a.status === 201) expect(held.find((s) => s.id === targets[i])!.holdReservationId).toBe(a.body.id);
      });
      await poolSettled();

      // Nothing stays stuck: once the holds lapse, every one of those sessions can be held by someone else.
      clock.advance(11 * MINUTE);
      const others = await createCustomers(t.db, t.app.idTokens, targets.length);
      const retakes = await Promise.all(
        others.map((who, i) => call('POST', '/api/v1/bookings/reservation', who, { slotId: targets[i]! })),
      );
      expect(retakes.map((r) => r.status)).toEqual(targets.map(() => 201));
    },
  );

  it(
    'a checkout in flight when PostgreSQL restarts: 503, the hold survives, and retrying the same cart gives one ' +
      'order and one PaymentIntent',
    async () => {
      const who = await createCustomer(t.db, t.app.idTokens);
      const flow = await holdAndCart(call, who, sessions[next++]!, basket);
      const lock = await blockRow('reservations', flow.reservationId);
      const inFlight = call('POST', flow.checkoutUrl, who, { cartId: flow.cartId });
      await lock.waiting();
      await server.restart('immediate');
      await lock.close();
      expect((await inFlight).status).toBe(503);

      await ready();
      const hold = await call('GET', `/api/v1/bookings/reservation/${flow.reservationId}`, who);
      expect(hold.body).toMatchObject({ status: 'active' });
      const first = await call('POST', flow.checkoutUrl, who, { cartId: flow.cartId });
      expect(first.status).toBe(201);
      const second = await call('POST', flow.checkoutUrl, who, { cartId: flow.cartId });
      expect(second.body).toEqual(first.body);
      await expectOneOrderAndIntent(flow.reservationId, flow.cartId, first.body.orderId as string);
    },
  );

  it(
    'PostgreSQL gone between creating the PaymentIntent and storing it: 503, and the retry stores that same ' +
      'intent',
    async () => {
      const who = await createCustomer(t.db, t.app.idTokens);
      const flow = await holdAndCart(call, who, sessions[next++]!, basket);
      const held = proxy.holdNext('POST /v1/payment_intents');
      const inFlight = call('POST', flow.checkoutUrl, who, { cartId: flow.cartId });
      await held.reached;
      // Stripe has created the intent; the database goes before the API can store it.
      await server.stop('fast');
      held.release();
      const answer = await inFlight;
      expect(answer.status).toBe(503);
      expect(answer.body.code).toBe('SERVICE_UNAVAILABLE');
      await server.start();

      await ready();
      const retry = await call('POST', flow.checkoutUrl, who, { cartId: flow.cartId });
      expect(retry.status).toBe(201);
      await expectOneOrderAndIntent(flow.reservationId, flow.cartId, retry.body.orderId as string);
      const creates = proxy.requests.filter(
        (r) =>
          r.method === 'POST' &&
          r.path === '/v1/payment_intents' &&
          r.idempotencyKey === `order-${retry.body.orderId}-payment-intent`,
      );
      expect(creates.length).toBe(2);
      await poolSettled();
    },
  );

  it(
    'paying while PostgreSQL is down: the webhook gets 503s, and the booking is confirmed once when the database is ' +
      'back',
    async () => {
      const who = await createCustomer(t.db, t.app.idTokens);
      const flow = await holdAndCart(call, who, sessions[next++]!, basket);
      const checkout = await call('POST', flow.checkoutUrl, who, { cartId: flow.cartId });
      const bookingId = checkout.body.bookingId as string;
      await server.stop('fast');
      expect((await payWithCard(sandbox, checkout.body.client_secret as string, CARDS.success)).status).toBe(
        'succeeded',
      );
      const intentId = (checkout.body.client_secret as string).split('_secret_')[0]!;
      const succeeded = sandbox
        .events('payment_intent.succeeded')
        .find((e) => (e.data.object as unknown as { id: string }).id === intentId)!;
      await waitFor('a refused webhook', async () =>
        sandbox.webhookAttempts(succeeded.id).some((a) => a.status === 503) ? true : undefined,
      );
      await server.start();
      await ready();
      // Whichever comes first, Stripe's next retry or the reconciliation job, applies it; the other changes nothing.
      clock.advance(t.config.PAYMENT_RECONCILE_GRACE_SECONDS * 1000);
      await reconcilePayments(t.app);
      await sandbox.webhooksIdle();
      await sandbox.redeliver(succeeded.id);
      expect((await t.db.select().from(bookings).where(eq(bookings.id, bookingId)))[0]!.status).toBe('completed');
      const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, who.email));
      expect(mails.map((m) => m.subject.split(':')[0])).toEqual(['Booked']);
      await poolSettled();
    },
  );

  it(
    'transactions hammered through six restarts: no crash, no pool client lost, and they run again ' + 'afterwards',
    async () => {
      const { db, pool } = createDb(server.url, 5);
      let stop = false;
      let committed = 0;
      const loops = Array.from({ length: 8 }, async () => {
        while (!stop) {
          try {
            await db.transaction(async (tx) => void (await tx.execute(sql`select pg_sleep(0.001)`)));
            committed += 1;
          } catch {
            // 503 material: the caller retries.
          }
        }
      });
      try {
        for (let i = 0; i < 6; i++) {
          const before = committed;
          await waitFor('transactions between restarts', async () => (committed > before ? true : undefined));
          await server.restart(i % 2 ? 'immediate' : 'fast');
        }
        const before = committed;
        await waitFor('transactions after the last restart', async () => (committed > before + 20 ? true : undefined));
      } finally {
        stop = true;
        await Promise.all(loops);
      }
      // Before the fix, drizzle's pool transactions left every client checked out (and crashed the process on 'error').
      expect(pool.totalCount - pool.idleCount).toBe(0);
      await pool.end();
      await ready();
    },
    90_000,
  );

  async function expectOneOrderAndIntent(reservationId: string, cartId: string, orderId: string) {
    const rows = await t.db.select().from(orders).where(eq(orders.cartId, cartId));
    expect(rows.map((o) => o.id)).toEqual([orderId]);
    expect(
      await t.db.select({ id: bookings.id }).from(bookings).where(eq(bookings.reservationId, reservationId)),
    ).toHaveLength(1);
    const created = sandbox
      .events('payment_intent.created')
      .filter((e) => (e.data.object as unknown as { metadata: { orderId?: string } }).metadata.orderId === orderId);
    expect(created).toHaveLength(1);
    expect(rows[0]!.paymentIntentId).toBe((created[0]!.data.object as unknown as { id: string }).id);
  }
});
