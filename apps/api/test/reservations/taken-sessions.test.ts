import { randomUUID } from 'node:crypto';
import { localTimeOf } from '@kringle/contracts/dates';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { slots } from '../../src/db/schema/catalogue';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { startSlotEventsListener } from '../../src/modules/sessions/slot-events.listener';
import { HEARD_TTL_MS } from '../../src/modules/sessions/taken-sessions';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';

const NOW = new Date('2026-12-01T00:00:00Z'); // 11:00 in Sydney

/**
 * Sessions a process has just seen taken are refused without a query (decision 0014): never for
 * longer than AVAILABILITY_CACHE_MS or the hold that took them, never to their holder, and
 * forgotten at once when this process frees them.
 */
describe('taken sessions (drop-day refusals from memory)', () => {
  let t: TestApp;
  let clock: ManualClock;
  let sessions: { id: string; startAt: string; kind: string }[];
  let holly: TestCustomer;
  let noel: TestCustomer;
  /** Hold statements that reached PostgreSQL (the one-statement hold is a named query). */
  let holdQueries = 0;
  /** Every statement through the pool, named or not, but the announcements a hold sends after its answer. */
  let queries = 0;

  const post = (url: string, who: TestCustomer, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });
  const hold = (who: TestCustomer, slotId: string) => post('/api/v1/bookings/reservation', who, { slotId });
  const session = (hhmm: string) =>
    sessions.find((s) => s.kind === 'session' && localTimeOf(new Date(s.startAt), 'Australia/Sydney') === hhmm)!.id;
  /** What another API process (or a job there) does when it lets a session go. */
  const freedElsewhere = (slotId: string) =>
    t.db.update(slots).set({ holdReservationId: null, holdExpiresAt: null }).where(eq(slots.id, slotId));

  beforeAll(async () => {
    clock = new ManualClock(NOW);
    t = await createTestApp({}, clock);
    await loadSeason(t.db, demoSeason(NOW), NOW);
    const family = await createCustomer(t.db, t.app.idTokens);
    const loc = (await t.app.inject({ url: '/api/v1/common/locations', headers: family.headers })).json().items[0];
    sessions = (
      await t.app.inject({
        url: `/api/v1/booking-slot/${loc.id}/available-slots?date=2026-12-04&slotTypeId=${loc.slotTypes[0].id}`,
        headers: family.headers,
      })
    ).json().items;
    const query = t.pool.query.bind(t.pool) as (...args: unknown[]) => unknown;
    (t.pool as { query: unknown }).query = (...args: unknown[]) => {
      const name = (args[0] as { name?: string })?.name;
      const text = typeof args[0] === 'string' ? args[0] : (args[0] as { text?: string })?.text;
      if (!text?.includes('pg_notify')) queries += 1;
      if (name === 'kringle-quick-hold') holdQueries += 1;
      return query(...args);
    };
  });
  beforeEach(async () => {
    clock.set(NOW);
    holdQueries = 0;
    holly = await createCustomer(t.db, t.app.idTokens);
    noel = await createCustomer(t.db, t.app.idTokens);
  });
  afterAll(async () => t.close());

  it(
    'refuses a session it has just seen taken without asking PostgreSQL, for AVAILABILITY_CACHE_MS at ' + 'most',
    async () => {
      expect((await hold(holly, session('10:00'))).statusCode).toBe(201);
      expect(holdQueries).toBe(1);
      await freedElsewhere(session('10:00'));

      // No statement at all: not the hold, nor a look for the family's own checkout (Holly's hold has it).
      const before = queries;
      const refused = await hold(noel, session('10:00'));
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toEqual({
        code: 'SLOT_UNAVAILABLE',
        error: 'Sorry, that session was just taken. Please choose another time.',
      });
      expect(holdQueries).toBe(1);
      expect(queries).toBe(before);

      clock.advance(t.config.AVAILABILITY_CACHE_MS - 1);
      expect((await hold(noel, session('10:00'))).statusCode).toBe(409);
      clock.advance(1);
      expect((await hold(noel, session('10:00'))).statusCode).toBe(201);
      expect(holdQueries).toBe(2);
    },
  );

  it('learns from a lost attempt too, and never remembers past the hold that took the session', async () => {
    const other = await createTestApp({}, clock, undefined, { databaseUrl: t.databaseUrl });
    const holdThere = (who: TestCustomer, slotId: string) =>
      other.app.inject({
        method: 'POST',
        url: '/api/v1/bookings/reservation',
        headers: who.headers,
        payload: { slotId },
      });
    try {
      // Taken through another process: this one learns it from its first refusal.
      expect((await holdThere(holly, session('10:10'))).statusCode).toBe(201);
      expect((await hold(noel, session('10:10'))).statusCode).toBe(409);
      expect((await hold(noel, session('10:10'))).statusCode).toBe(409);
      expect(holdQueries).toBe(1);

      // Taken there by a hold with half a second left: refused here for that half second only.
      const elf = await createCustomer(t.db, t.app.idTokens);
      expect((await holdThere(elf, session('10:20'))).statusCode).toBe(201);
      await t.db
        .update(slots)
        .set({ holdExpiresAt: new Date(NOW.getTime() + 500) })
        .where(eq(slots.id, session('10:20')));
      expect((await hold(noel, session('10:20'))).statusCode).toBe(409);
      clock.advance(500);
      expect((await hold(noel, session('10:20'))).statusCode).toBe(201);
    } finally {
      await other.close();
    }
  });

  it(
    'never refuses the holder: picking your own session again answers that same hold (API.md, ' + '2026-11-26)',
    async () => {
      const first = (await hold(holly, session('10:30'))).json();
      const again = await hold(holly, session('10:30'));
      expect(again.statusCode).toBe(200);
      expect(again.json().id).toBe(first.id);
    },
  );

  it('offers a session freed through this process at once: a hold let go, twice', async () => {
    const mine = (await hold(holly, session('10:40'))).json();
    expect((await hold(noel, session('10:40'))).statusCode).toBe(409);
    expect((await post(`/api/v1/bookings/reservation/${mine.id}/cancel`, holly)).statusCode).toBe(200);
    expect((await hold(noel, session('10:40'))).statusCode).toBe(201);

    expect((await hold(holly, session('10:50'))).statusCode).toBe(201);
    const elf = await createCustomer(t.db, t.app.idTokens);
    expect((await hold(elf, session('10:50'))).statusCode).toBe(409);
    // Holly changes her mind: she lets 10:50 go for 11:00 (one hold per family, decision 0059).
    const second = await hold(holly, session('11:00'));
    expect(second.json().code).toBe('HOLD_LIMIT');
    const held = (await t.app.inject({ url: '/api/v1/bookings/reservation', headers: holly.headers })).json().items[0];
    expect((await post(`/api/v1/bookings/reservation/${held.id}/cancel`, holly)).statusCode).toBe(200);
    expect((await hold(holly, session('11:00'))).statusCode).toBe(201);
    expect((await hold(elf, session('10:50'))).statusCode).toBe(201);
  });

  it('hears about sessions other processes take, and keeps listening after its connection drops', async () => {
    const other = await createTestApp({}, clock, undefined, { databaseUrl: t.databaseUrl });
    const listener = startSlotEventsListener({
      state: t.app.slotState,
      clock,
      log: t.app.log,
      databaseUrl: t.databaseUrl,
    });
    const memo = t.app.slotState.taken;
    const heard = (slotId: string) =>
      expect.poll(() => memo.refuses(slotId, noel.id, clock.now()), { timeout: 5000 }).toBe(true);
    const holdThere = (who: TestCustomer, slotId: string) =>
      other.app.inject({
        method: 'POST',
        url: '/api/v1/bookings/reservation',
        headers: who.headers,
        payload: { slotId },
      });
    try {
      await listener.ready;
      expect((await holdThere(holly, session('11:30'))).statusCode).toBe(201);
      await heard(session('11:30'));
      expect((await hold(noel, session('11:30'))).statusCode).toBe(409);
      expect(holdQueries).toBe(0);
      // The holder is not refused here either.
      expect(memo.refuses(session('11:30'), holly.id, clock.now())).toBe(false);
      // While it hears every free, what it heard lasts HEARD_TTL_MS, not AVAILABILITY_CACHE_MS...
      clock.advance(HEARD_TTL_MS - 1);
      expect(memo.refuses(session('11:30'), noel.id, clock.now())).toBe(true);
      // ...and a free anywhere (here straight in the database) is heard when it commits.
      await freedElsewhere(session('11:30'));
      await expect.poll(() => memo.refuses(session('11:30'), noel.id, clock.now()), { timeout: 5000 }).toBe(false);
      expect((await hold(noel, session('11:30'))).statusCode).toBe(201);
      clock.set(NOW);

      // An announcement is sent a moment after its hold: arriving after that hold's free, it is dropped.
      const [slot, ended, live] = [sessions.filter((x) => x.kind === 'session').at(-1)!.id, randomUUID(), randomUUID()];
      const notify = (channel: string, payload: string) => t.pool.query('select pg_notify($1, $2)', [channel, payload]);
      const announcement = (reservationId: string) =>
        `another-process|${slot} ${holly.id} ${NOW.getTime() + 600_000} ${reservationId}`;
      await notify('kringle_freed', `${slot} ${ended}`);
      await notify('kringle_taken', announcement(ended));
      await notify('kringle_taken', announcement(live));
      await heard(slot);
      await notify('kringle_freed', `${slot} ${live}`);
      await notify('kringle_taken', announcement(ended));
      await expect.poll(() => memo.refuses(slot, noel.id, clock.now()), { timeout: 5000 }).toBe(false);
      await new Promise((r) => setTimeout(r, 200));
      expect(memo.refuses(slot, noel.id, clock.now())).toBe(false);

      // PostgreSQL drops the listener (a restart, a failover): frees may have gone unheard, so it
      // forgets everything, then connects again by itself.
      const elf = await createCustomer(t.db, t.app.idTokens);
      expect((await holdThere(elf, session('11:40'))).statusCode).toBe(201);
      await heard(session('11:40'));
      await t.pool.query(
        `select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'kringle-api-listener' and ` +
          `datname = current_database()`,
      );
      await expect.poll(() => memo.refuses(session('11:40'), noel.id, clock.now()), { timeout: 5000 }).toBe(false);
      await expect
        .poll(
          async () => {
            const seen = await t.pool.query(
              `select count(*)::int as n from pg_stat_activity where application_name = 'kringle-api-listener' and ` +
                `datname = current_database()`,
            );
            return seen.rows[0].n;
          },
          { timeout: 10_000, interval: 200 },
        )
        .toBe(1);
      const fir = await createCustomer(t.db, t.app.idTokens);
      expect((await holdThere(fir, session('11:50'))).statusCode).toBe(201);
      await heard(session('11:50'));
    } finally {
      await listener.stop();
      await other.close();
    }
  });
});
