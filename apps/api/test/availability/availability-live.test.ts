import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Db } from '../../src/db/client';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { startSlotEventsListener } from '../../src/modules/sessions/slot-events.listener';
import { type ApiProcesses } from '../helpers/api-processes';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { createTestApp } from '../helpers/test-app';
import { sseReader } from '../helpers/sse-reader';
import { startSeasonOnProcesses, type SeasonOnProcesses } from '../helpers/season-on-processes';

async function firstSession(db: Db) {
  const row = (
    await db.execute(sql`
      select s.id, s.location_id, to_char(s.start_at at time zone l.timezone, 'YYYY-MM-DD') as day from slots s join
      locations l on l.id = s.location_id
      where s.kind = 'session' and s.start_at > now() + interval '2 days' order by l.sort_order, s.start_at limit 1`)
  ).rows[0]!;
  return { slotId: row.id as string, locationId: row.location_id as string, date: row.day as string };
}

/**
 * GET /booking-slot/{locationId}/live (decision 0026): a hold taken through another API process
 * reaches a stream open on this one within 2 s, through the one LISTEN connection per process.
 */
describe('live slot changes across API processes', () => {
  let api: ApiProcesses;
  let db: Db;
  let world: SeasonOnProcesses;
  let families: TestCustomer[];
  let session: SeasonOnProcesses['session'];

  beforeAll(async () => {
    world = await startSeasonOnProcesses(2, 2);
    ({ api, db, families, session } = world);
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  const live = async (i: number, who: TestCustomer, locationId = session.locationId) =>
    fetch(`${api.urls[i]}/api/v1/booking-slot/${locationId}/live`, { headers: who.headers });

  it(
    'sends retry first, then a hold taken on another process as reserved, and its cancel as available, within 2 s ' +
      'each',
    async () => {
      const res = await live(0, families[0]!);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(res.headers.get('cache-control')).toBe('no-cache, no-transform');
      const events = sseReader(res.body!);
      expect(await events.next()).toEqual({ retry: '3000' });

      const started = Date.now();
      const held = await fetch(`${api.urls[1]}/api/v1/bookings/reservation`, {
        method: 'POST',
        headers: { ...families[1]!.headers, 'content-type': 'application/json' },
        body: JSON.stringify({ slotId: session.slotId }),
      });
      expect(held.status).toBe(201);
      const reservationId = ((await held.json()) as { id: string }).id;
      const taken = await events.next((e) => e.event === 'slot', 2000);
      expect(Date.now() - started).toBeLessThan(2000);
      expect(JSON.parse(taken.data!)).toEqual({ slotId: session.slotId, date: session.date, status: 'reserved' });

      const cancelled = await fetch(`${api.urls[1]}/api/v1/bookings/reservation/${reservationId}/cancel`, {
        method: 'POST',
        headers: families[1]!.headers,
      });
      expect(cancelled.status).toBe(200);
      const freed = await events.next((e) => e.event === 'slot', 2000);
      expect(JSON.parse(freed.data!)).toEqual({ slotId: session.slotId, date: session.date, status: 'available' });
      await events.cancel();
    },
    30_000,
  );

  it('sends nothing about another location', async () => {
    const other = (await db.execute(sql`select id from locations where id <> ${session.locationId}::uuid limit 1`))
      .rows[0]?.id as string | undefined;
    if (!other) return;
    const events = sseReader((await live(0, families[0]!, other)).body!);
    await events.next((e) => e.retry === '3000');
    const held = await fetch(`${api.urls[1]}/api/v1/bookings/reservation`, {
      method: 'POST',
      headers: { ...families[0]!.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ slotId: session.slotId }),
    });
    expect(held.status).toBe(201);
    await expect(events.next((e) => e.event === 'slot', 1000)).rejects.toThrow('no such event');
    await events.cancel();
  }, 30_000);

  it('answers an unknown location 404 and no token 401, as JSON', async () => {
    const unknown = await live(0, families[0]!, '00000000-0000-4000-8000-000000000000');
    expect(unknown.status).toBe(404);
    expect(((await unknown.json()) as { code: string }).code).toBe('NOT_FOUND');
    const anonymous = await fetch(`${api.urls[0]}/api/v1/booking-slot/${session.locationId}/live`);
    expect(anonymous.status).toBe(401);
  });
});

describe('live slot changes in one process', () => {
  it(
    'answers 503 while the process cannot hear changes, and ends open streams cleanly when the server shuts ' + 'down',
    async () => {
      const t = await createTestApp({}, new ManualClock(new Date()));
      const now = new Date();
      // Two weeks: the demo's own season ends on Christmas Eve, with no session two days out from 22 December.
      await loadSeason(t.db, demoSeason(now, { days: 14 }), now);
      const family = await createCustomer(t.db, t.app.idTokens);
      const { locationId } = await firstSession(t.db);
      const url = `/api/v1/booking-slot/${locationId}/live`;
      // No listener (AVAILABILITY_CACHE_MS=0 or its connection down): refused, so the client polls.
      const refused = await t.app.inject({ url, headers: family.headers });
      expect(refused.statusCode).toBe(503);
      expect(refused.json().code).toBe('SERVICE_UNAVAILABLE');

      const listener = startSlotEventsListener({
        state: t.app.slotState,
        clock: t.clock,
        log: t.app.log,
        databaseUrl: t.databaseUrl,
      });
      await listener.ready;
      const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
      const events = sseReader((await fetch(`${address}${url}`, { headers: family.headers })).body!);
      expect(await events.next()).toEqual({ retry: '3000' });
      const closing = t.close();
      expect(await events.ended(5000)).toBe(true);
      await closing;
      await listener.stop();
    },
    30_000,
  );
});
