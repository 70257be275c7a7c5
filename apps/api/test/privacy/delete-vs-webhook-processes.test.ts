import { sql } from 'drizzle-orm';
import Stripe from 'stripe';
import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import { users } from '../../src/db/schema/accounts';
import type { IdTokens } from '../../src/modules/accounts/id-tokens';
import { hashPassword } from '../../src/modules/accounts/passwords';
import { STRONG_PASSWORD } from '../helpers/accounts';
import { startApiProcesses, type ApiProcesses } from '../helpers/api-processes';
import { CARDS, payWithCard, startSandbox } from '../helpers/payments';
import { createProcessesDatabase } from '../helpers/processes-database';
import { bookDirect, headersOf, type Person } from '../staff/staff-fixtures';

/**
 * Issue 48 item 9: a family deleting its account (which cancels its upcoming bookings) while the
 * payment webhook of one of them lands deadlocked once in three (500): the cancel locked the
 * booking then its order, the webhook the order then its booking. Across two real API processes
 * on one PostgreSQL, many times over with the webhook sent at staggered moments: never a 500,
 * and each booking ends cancelled with its payment refunded once, in full.
 */
describe('account deletion racing its payment webhook, two API processes', () => {
  const TRIALS = 48;
  const AT_ONCE = 8;
  let api: ApiProcesses;
  let db: Db;
  let close: () => Promise<void>;
  let idTokens: IdTokens;
  let sandbox: StripeSandbox;
  let stripe: Stripe;
  let sessionIds: string[];

  beforeAll(async () => {
    const conn = await createProcessesDatabase({ poolSize: 8, season: { days: 21 } });
    ({ db, idTokens, close } = conn);
    const started = await startSandbox();
    sandbox = started.sandbox;
    stripe = new Stripe(sandbox.secretKey, { ...sandbox.stripeClientOptions() });
    // Far enough ahead that a cancel refunds in full (the policy's 48 hours).
    const rows = await db.execute(sql`
      select id from slots where kind = 'session' and not blocked and start_at > now() + interval '4 days' order by
      start_at limit ${TRIALS + 1}`);
    sessionIds = rows.rows.map((r) => r.id as string);
    expect(sessionIds).toHaveLength(TRIALS + 1);
    api = await startApiProcesses(2, { ...conn.env, ...started.env, JOBS_ENABLED: 'false' });
    // Webhooks go to process 1 only when the test says (redeliver); the deletions go to process 0.
    sandbox.setWebhookUrl(`${api.urls[1]}/api/v1/webhooks/stripe`);
    sandbox.pauseWebhooks();
  }, 180_000);
  afterAll(async () => {
    await api?.stop();
    await sandbox?.stop();
    await close?.();
  });

  /** A family with a password and one checkout paid at Stripe whose webhook has not landed yet. */
  async function paidCheckout(passwordHash: string, slotId: string) {
    const person: Person = {
      id: crypto.randomUUID(),
      email: `family-${crypto.randomUUID().slice(0, 8)}@kringle.test`,
      staff: false,
      staffRole: null,
    };
    await db.insert(users).values({
      id: person.id,
      email: person.email,
      passwordHash,
      firstName: 'Holly',
      lastName: 'Ivy',
      emailVerifiedAt: new Date(),
    });
    const booked = await bookDirect(db, person, slotId, { status: 'payment_pending' });
    const orderId = (await db.execute(sql`select id from orders where booking_id = ${booked.id}::uuid`)).rows[0]!
      .id as string;
    const intent = await stripe.paymentIntents.create({
      amount: 3995,
      currency: 'aud',
      metadata: { bookingId: booked.id, orderId },
    });
    await db.execute(sql`update orders set payment_intent_id = ${intent.id} where id = ${orderId}::uuid`);
    expect((await payWithCard(sandbox, intent.client_secret!, CARDS.success)).status).toBe('succeeded');
    const event = sandbox
      .events('payment_intent.succeeded')
      .find((e) => (e.data.object as { id: string }).id === intent.id)!;
    return { person, booking: booked, eventId: event.id };
  }

  const latch = () => {
    let open!: () => void;
    const opened = new Promise<void>((resolve) => (open = resolve));
    return { open, opened };
  };

  async function race(trial: number, passwordHash: string) {
    const { person, booking, eventId } = await paidCheckout(passwordHash, sessionIds[trial]!);
    const headers = { ...(await headersOf(idTokens, person)), 'content-type': 'application/json' };
    // The deletion checks the password first (tens of ms); the webhook is sent across that window.
    const delay = (trial * 7) % 120;
    const [deleted, webhook] = await Promise.all([
      fetch(`${api.urls[0]}/api/v1/user`, {
        method: 'DELETE',
        headers,
        body: JSON.stringify({ password: STRONG_PASSWORD, confirmEmail: person.email, cancelUpcoming: true }),
      }).then(async (r) => ({ status: r.status, body: await r.text() })),
      new Promise((resolve) => setTimeout(resolve, delay)).then(() => sandbox.redeliver(eventId)),
    ]);
    return { booking, deleted, webhook };
  }

  /** Resolves once an API process's statement matching `like` waits on a lock (pg_stat_activity). */
  async function waitingOnLock(like: string) {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const { rows } = await db.execute(sql`
        select count(*)::int as n from pg_stat_activity
        where application_name = 'kringle-api' and wait_event_type = 'Lock' and query ilike ${like}`);
      if ((rows[0]!.n as number) > 0) return;
      if (Date.now() > deadline) throw new Error(`nothing waits on a lock for ${like}`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  /**
   * The interleaving that deadlocked, made to happen every time: the deletion's cancel holds the
   * booking (and is held up just after by a lock on the sessions table), the webhook arrives, then
   * the cancel goes on to the order. With the webhook locking the order first, each then waited for
   * the other. The test's own two transactions only pause the processes at those points.
   */
  it('the cancel holding the booking while the webhook arrives: both answer, no 500, one refund', async () => {
    const { person, booking, eventId } = await paidCheckout(await hashPassword(STRONG_PASSWORD), sessionIds[TRIALS]!);
    const headers = { ...(await headersOf(idTokens, person)), 'content-type': 'application/json' };
    const holdBooking = latch();
    const holdSlots = latch();
    const bookingHeld = latch();
    const slotsHeld = latch();
    const t1 = db.transaction(async (tx) => {
      await tx.execute(sql`select id from bookings where id = ${booking.id}::uuid for update`);
      bookingHeld.open();
      await holdBooking.opened;
    });
    await bookingHeld.opened;
    const deleted = fetch(`${api.urls[0]}/api/v1/user`, {
      method: 'DELETE',
      headers,
      body: JSON.stringify({ password: STRONG_PASSWORD, confirmEmail: person.email, cancelUpcoming: true }),
    }).then(async (r) => ({ status: r.status, body: await r.text() }));
    await waitingOnLock('%from "bookings"%for update%');
    const t2 = db.transaction(async (tx) => {
      await tx.execute(sql`lock table slots in access exclusive mode`);
      slotsHeld.open();
      await holdSlots.opened;
    });
    await slotsHeld.opened;
    holdBooking.open();
    await t1;
    // The cancel now holds the booking and waits to read its session.
    await waitingOnLock('%slots%');
    const webhook = sandbox.redeliver(eventId);
    await waitingOnLock('%from "bookings"%for update%');
    holdSlots.open();
    await t2;
    const [d, w] = await Promise.all([deleted, webhook]);
    expect(d.status, d.body).toBe(202);
    expect(w.status).toBe(200);
    expect((await db.execute(sql`select status from bookings where id = ${booking.id}::uuid`)).rows[0]!.status).toBe(
      'cancelled',
    );
    expect(
      (await db.execute(sql`select amount_cents from refunds where booking_id = ${booking.id}::uuid`)).rows,
    ).toEqual([{ amount_cents: 3995 }]);
  }, 60_000);

  it(
    `${TRIALS} deletions each racing its booking's payment webhook: no 500, each booking cancelled and refunded ` +
      `once in full`,
    async () => {
      const passwordHash = await hashPassword(STRONG_PASSWORD);
      const results: Awaited<ReturnType<typeof race>>[] = [];
      for (let i = 0; i < TRIALS; i += AT_ONCE) {
        results.push(
          ...(await Promise.all(
            Array.from({ length: Math.min(AT_ONCE, TRIALS - i) }, (_, k) => race(i + k, passwordHash)),
          )),
        );
      }
      const deletions = results.map((r) => r.deleted.status);
      const webhooks = results.map((r) => r.webhook.status);
      expect(
        deletions.filter((s) => s !== 202),
        JSON.stringify(results.filter((r) => r.deleted.status !== 202).map((r) => r.deleted.body)),
      ).toEqual([]);
      expect(webhooks.filter((s) => s !== 200)).toEqual([]);

      for (const { booking } of results) {
        const status = (await db.execute(sql`select status from bookings where id = ${booking.id}::uuid`)).rows[0]!
          .status;
        expect(status, booking.reference).toBe('cancelled');
        const refunds = (await db.execute(sql`select amount_cents from refunds where booking_id = ${booking.id}::uuid`))
          .rows;
        const seen = JSON.stringify([
          (
            await db.execute(
              sql`select status, paid_at, refunded_cents, payment_intent_id from orders where booking_id =
${booking.id}::uuid`,
            )
          ).rows,
          (
            await db.execute(
              sql`select action, actor_kind from audit_entries where booking_id = ${booking.id}::uuid order by at`,
            )
          ).rows,
          results.find((r) => r.booking.id === booking.id),
        ]);
        expect(refunds, `${booking.reference} ${seen}`).toEqual([{ amount_cents: 3995 }]);
      }
    },
    300_000,
  );
});
