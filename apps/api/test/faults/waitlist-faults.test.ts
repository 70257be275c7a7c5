import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/db/schema/mail';
import { freePort } from '../../src/dev/free-port';
import { startSmtpCatcher, type SmtpCatcher } from '../../src/dev/smtp-catcher';
import { createOutboxJob } from '../../src/jobs/outbox.job';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { retryDelayMs } from '../../src/modules/mail/outbox.service';
import { waitlistPass } from '../../src/modules/waitlist/waitlist.hand-off';
import { createCustomers, type TestCustomer } from '../helpers/customers';
import { startRestartablePostgres, type RestartablePostgres } from '../helpers/restartable-postgres';
import { oneSessionDays, type OneSessionDay } from '../helpers/waitlist-days';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { injectCall, waitFor, type Call } from './booking-flow';

/** A sold-out day: A holds its one session, B waits, A lets it go. Returns B. */
async function freedWithBWaiting(t: TestApp, call: Call, day: OneSessionDay): Promise<TestCustomer> {
  const [a, b] = await createCustomers(t.db, t.app.idTokens, 2);
  const held = await call('POST', '/api/v1/bookings/reservation', a, { slotId: day.slotId });
  expect(held.status).toBe(201);
  expect(
    (
      await call('POST', '/api/v1/waitlist', b, {
        locationId: day.locationId,
        slotTypeId: day.slotTypeId,
        date: day.date,
      })
    ).status,
  ).toBe(201);
  expect((await call('POST', `/api/v1/bookings/reservation/${held.body.id as string}/cancel`, a)).status).toBe(200);
  return b!;
}

/** The offer and its mail are one: an offered entry, its hold on the session, and exactly one mail to the family. */
async function offerState(t: TestApp, who: TestCustomer, slotId: string) {
  const r = await t.db.execute(sql`
    select w.status, w.reservation_id, s.hold_reservation_id,
      (select count(*)::int from mail_outbox m where m.to_address = ${who.email} and m.subject like
      'A session came free%') as mails
    from waitlist_entries w, slots s where w.user_id = ${who.id}::uuid and s.id = ${slotId}::uuid`);
  return r.rows[0]!;
}

describe('fault: the waitlist with SMTP or PostgreSQL down', { timeout: 90_000 }, () => {
  let t: TestApp | undefined;
  let catcher: SmtpCatcher | null = null;
  let server: RestartablePostgres | undefined;
  afterAll(async () => {
    await catcher?.stop();
    await t?.close();
    await server?.destroy();
  });

  it(
    'SMTP down: the offer is made at once, its mail waits in the outbox and arrives exactly once when SMTP is ' +
      'back',
    async () => {
      const clock = new ManualClock(new Date());
      t = await createTestApp({}, clock);
      await loadSeason(t.db, demoSeason(clock.now(), { days: 42 }), clock.now());
      const [day] = await oneSessionDays(t.db, 1);
      const call = injectCall(t.app);
      const b = await freedWithBWaiting(t, call, day!);
      const port = await freePort();
      const job = createOutboxJob(t.app, { smtpUrl: `smtp://127.0.0.1:${port}` })!;
      await waitlistPass(t.app)();
      expect(await offerState(t, b, day!.slotId)).toMatchObject({ status: 'offered', mails: 1 });
      await job.run();
      const queued = () => t!.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, b.email));
      expect((await queued())[0]).toMatchObject({ status: 'pending', attempts: 1 });
      catcher = await startSmtpCatcher(t.databaseUrl, { port });
      clock.advance(retryDelayMs(1));
      await job.run();
      await job.run();
      expect((await queued())[0]).toMatchObject({ status: 'sent', attempts: 2 });
      const received = await t.db.execute(
        sql`select count(*)::int as n from dev_mailbox where to_address = ${b.email}`,
      );
      expect(received.rows[0]!.n).toBe(1);
      job.close();
      await t.close();
      t = undefined;
    },
  );

  it('PostgreSQL restarted around the hand-off: the freed session is still offered, once, with one mail', async () => {
    server = await startRestartablePostgres();
    const clock = new ManualClock(new Date());
    const app = (t = await createTestApp({}, clock, undefined, { databaseUrl: server.url }));
    await loadSeason(app.db, demoSeason(clock.now(), { days: 42 }), clock.now());
    const days = await oneSessionDays(app.db, 3);
    const call = injectCall(app.app);
    const pass = waitlistPass(app.app);
    const ready = () =>
      waitFor('PostgreSQL back', async () => ((await call('GET', '/api/v1/ready')).status === 200 ? true : undefined));
    for (const [i, day] of days.entries()) {
      const b = await freedWithBWaiting(app, call, day);
      // The free is committed; the server goes down while (or before) the hand-off runs.
      const handOff = pass().then(
        () => 'done',
        () => 'failed',
      );
      await server.restart(i % 2 ? 'fast' : 'immediate');
      await handOff;
      await ready();
      const between = await offerState(app, b, day.slotId);
      // Whole or absent: offered with its hold and its one mail, or still waiting with the session free.
      if (between.status === 'offered')
        expect(between).toMatchObject({ hold_reservation_id: between.reservation_id, mails: 1 });
      else expect(between).toMatchObject({ status: 'waiting', hold_reservation_id: null, mails: 0 });
      // The next pass (any process's job) finishes what the restart interrupted, and repeats nothing.
      await waitFor('the next pass to succeed', () =>
        pass().then(
          () => true,
          () => undefined,
        ),
      );
      await pass();
      const after = await offerState(app, b, day.slotId);
      expect(after).toMatchObject({ status: 'offered', hold_reservation_id: after.reservation_id, mails: 1 });
    }
  });
});
