import { randomUUID } from 'node:crypto';
import { localTimeOf } from '@kringle/contracts/dates';
import { and, eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { slots } from '../../src/db/schema/catalogue';
import { reservations } from '../../src/db/schema/reservations';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';

const NOW = new Date('2026-12-01T00:00:00Z'); // 11:00 in Sydney

/**
 * The hold statements the taken-sessions path sends PostgreSQL (decisions 0014 and 0015): one for many attempts on a
 * session at once, batches for a burst, none held up by a session row another transaction writes, and every attempt
 * with AVAILABILITY_CACHE_MS=0. The memory itself is in taken-sessions.test.ts.
 */
describe('taken sessions (drop-day refusals from memory)', () => {
  let t: TestApp;
  let clock: ManualClock;
  let sessions: { id: string; startAt: string; kind: string }[];
  let holly: TestCustomer;
  let noel: TestCustomer;
  /** Hold statements that reached PostgreSQL (the one-statement hold is a named query). */
  let holdQueries = 0;
  const named = new Map<string, number>();
  const statementsNamed = (name: string) => named.get(name) ?? 0;

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
      if (name === 'kringle-quick-hold') holdQueries += 1;
      if (name) named.set(name, statementsNamed(name) + 1);
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

  it('sends one query for many attempts on one session at once; the others wait for its answer', async () => {
    const racers = await Promise.all(Array.from({ length: 12 }, () => createCustomer(t.db, t.app.idTokens)));
    const answers = await Promise.all(racers.map((r) => hold(r, session('11:10'))));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([201, ...Array<number>(11).fill(409)]);
    expect(holdQueries).toBe(1);
  });

  it('answers a burst of first attempts in batches, each exactly as alone', async () => {
    const loc = (await t.app.inject({ url: '/api/v1/common/locations', headers: holly.headers })).json().items[0];
    const day: { id: string; kind: string }[] = (
      await t.app.inject({
        url: `/api/v1/booking-slot/${loc.id}/available-slots?date=2026-12-05&slotTypeId=${loc.slotTypes[0].id}`,
        headers: holly.headers,
      })
    ).json().items;
    const free = day.filter((x) => x.kind === 'session').map((x) => x.id);
    const batches = () => statementsNamed('kringle-batch-hold');
    const before = batches();
    // Five customers who already hold a session, twenty who do not, one blocked session, one unknown.
    const holders = await Promise.all(Array.from({ length: 5 }, () => createCustomer(t.db, t.app.idTokens)));
    for (const [i, h] of holders.entries()) expect((await hold(h, free[i]!)).statusCode).toBe(201);
    const fresh = await Promise.all(Array.from({ length: 20 }, () => createCustomer(t.db, t.app.idTokens)));
    expect(free.length).toBeGreaterThan(35);
    const [blocked, unknown] = [free.at(-1)!, randomUUID()];
    await t.db.update(slots).set({ blocked: true }).where(eq(slots.id, blocked));

    // Every token verified once, so the burst reaches the holds together.
    for (const who of [...fresh, holly, noel])
      await t.app.inject({ url: '/api/v1/common/locations', headers: who.headers });

    // A lock that makes inserts into reservations wait holds the first statement at the database,
    // so the rest of the burst queues behind it and must go out in batches.
    // Its own connections: the app's pool is busy with the burst.
    const blocker = new pg.Client({ connectionString: t.databaseUrl });
    await blocker.connect();
    await blocker.query('begin; lock table reservations in share mode');
    const burst = Promise.all([
      ...holders.map((h, i) => hold(h, free[10 + i]!)),
      ...fresh.map((f, i) => hold(f, free[15 + i]!)),
      hold(holly, blocked),
      hold(noel, unknown),
    ]);
    const waiting = async () =>
      (
        await blocker.query(
          `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = ` +
            `current_database()`,
        )
      ).rows[0].n;
    await expect.poll(waiting, { timeout: 10_000 }).toBeGreaterThanOrEqual(1);
    await new Promise((r) => setTimeout(r, 200));
    await blocker.query('commit');
    await blocker.end();
    const answers = await burst;
    expect(batches()).toBeGreaterThan(before);
    // Those who already hold a session keep it (one hold per family, decision 0059).
    expect(answers.slice(0, 5).map((a) => a.json().code)).toEqual(Array<string>(5).fill('HOLD_LIMIT'));
    expect(answers.slice(5, 25).map((a) => a.statusCode)).toEqual(Array<number>(20).fill(201));
    expect(answers[25]!.json().code).toBe('SLOT_UNAVAILABLE');
    expect(answers[26]!.statusCode).toBe(404);
    // In the database: each one's one hold, on the session it holds; the sessions refused stay free.
    const expected = [...holders.map((_, i) => free[i]!), ...fresh.map((_, i) => free[15 + i]!)];
    for (const [i, who] of [...holders, ...fresh].entries()) {
      const live = await t.db
        .select()
        .from(reservations)
        .where(and(eq(reservations.userId, who.id), eq(reservations.status, 'active')));
      expect(live.map((r) => r.slotId)).toEqual([expected[i]!]);
      const [slot] = await t.db.select().from(slots).where(eq(slots.id, expected[i]!));
      expect(slot!.holdReservationId).toBe(live[0]!.id);
    }
    for (const id of free.slice(10, 15))
      expect((await t.db.select().from(slots).where(eq(slots.id, id)))[0]!.holdReservationId).toBeNull();
  });

  it('does not keep the other first attempts waiting behind one that waits on a session row', async () => {
    // Another transaction is writing 13:00 and has not committed: a hold on it, alone, waits.
    const writer = new pg.Client({ connectionString: t.databaseUrl });
    await writer.connect();
    try {
      await writer.query('begin');
      await writer.query('select id from slots where id = $1 for update', [session('13:00')]);
      const waiting = hold(holly, session('13:00'));
      const onLock = async () =>
        (
          await writer.query(
            `select count(*)::int as n from pg_stat_activity where wait_event_type = 'Lock' and datname = ` +
              `current_database()`,
          )
        ).rows[0].n;
      await expect.poll(onLock, { timeout: 10_000 }).toBe(1);
      // Answered while that statement still waits: the writer commits only afterwards.
      const other = await Promise.race([
        hold(noel, session('13:10')),
        new Promise<null>((r) => setTimeout(() => r(null), 5_000)),
      ]);
      await writer.query('commit');
      expect(other?.statusCode).toBe(201);
      expect((await waiting).statusCode).toBe(201);
    } finally {
      await writer.end();
    }
  });

  it('asks PostgreSQL every time with AVAILABILITY_CACHE_MS=0', async () => {
    const strict = await createTestApp({ AVAILABILITY_CACHE_MS: '0' }, clock, undefined, {
      databaseUrl: t.databaseUrl,
    });
    try {
      const at = (who: TestCustomer) =>
        strict.app.inject({
          method: 'POST',
          url: '/api/v1/bookings/reservation',
          headers: who.headers,
          payload: { slotId: session('11:20') },
        });
      expect((await at(holly)).statusCode).toBe(201);
      expect((await at(noel)).statusCode).toBe(409);
      await freedElsewhere(session('11:20'));
      expect((await at(noel)).statusCode).toBe(201);
    } finally {
      await strict.close();
    }
  });
});
