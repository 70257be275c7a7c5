import { localTimeOf } from '@kringle/contracts/dates';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';

const NOW = new Date('2026-12-01T00:00:00Z'); // 11:00 in Sydney

/**
 * The availability cache (docs/decisions): answers may be reused for AVAILABILITY_CACHE_MS by
 * the app clock, a hold taken or let go through this process shows at once, and a change made
 * elsewhere (another API process, a job) shows once that time has passed.
 */
describe('availability answers under the short cache', () => {
  let t: TestApp;
  let clock: ManualClock;
  let family: TestCustomer;
  let other: TestCustomer;
  let slotsUrl: string;
  let datesUrl: string;
  let sessions: { id: string; startAt: string; kind: string }[];

  const read = (url: string, who = family) => t.app.inject({ url, headers: who.headers });
  const statusOf = async (slotId: string) =>
    (await read(slotsUrl)).json().items.find((s: { id: string }) => s.id === slotId).status;
  const session = (hhmm: string) =>
    sessions.find((s) => s.kind === 'session' && localTimeOf(new Date(s.startAt), 'Australia/Sydney') === hhmm)!;

  beforeAll(async () => {
    clock = new ManualClock(NOW);
    t = await createTestApp({}, clock);
    await loadSeason(t.db, demoSeason(NOW), NOW);
    family = await createCustomer(t.db, t.app.idTokens);
    other = await createCustomer(t.db, t.app.idTokens);
    const loc = (await read('/api/v1/common/locations')).json().items[0];
    slotsUrl = `/api/v1/booking-slot/${loc.id}/available-slots?date=2026-12-03&slotTypeId=${loc.slotTypes[0].id}`;
    datesUrl =
      `/api/v1/booking-slot/${loc.id}/available-dates?slotTypeId=` +
      `${loc.slotTypes[0].id}&from=2026-12-03&to=2026-12-03`;
    sessions = (await read(slotsUrl)).json().items;
  });
  afterAll(async () => t.close());

  it('answers a repeated read with the same JSON, for any signed-in customer', async () => {
    const first = await read(slotsUrl);
    const second = await read(slotsUrl, other);
    expect(second.statusCode).toBe(200);
    expect(second.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(second.body).toBe(first.body);
    expect((await read(datesUrl)).json()).toEqual({
      timezone: 'Australia/Sydney',
      salesOpenAt: null,
      items: [{ date: '2026-12-03', available: expect.any(Number), sessions: expect.any(Number) }],
    });
  });

  it('shows a hold taken or let go through this process at once', async () => {
    const slotId = session('10:00').id;
    expect(await statusOf(slotId)).toBe('available');
    const before = (await read(datesUrl)).json().items[0].available;
    const hold = await t.app.inject({
      method: 'POST',
      url: '/api/v1/bookings/reservation',
      headers: other.headers,
      payload: { slotId },
    });
    expect(hold.statusCode).toBe(201);
    expect(await statusOf(slotId)).toBe('reserved');
    expect((await read(datesUrl)).json().items[0].available).toBe(before - 1);
    await t.app.inject({
      method: 'POST',
      url: `/api/v1/bookings/reservation/${hold.json().id}/cancel`,
      headers: other.headers,
    });
    expect(await statusOf(slotId)).toBe('available');
  });

  it('shows a change made elsewhere once AVAILABILITY_CACHE_MS has passed, never later', async () => {
    const slotId = session('10:10').id;
    expect(await statusOf(slotId)).toBe('available');
    // Another API process takes the hold: this process has not heard of it.
    await t.db.execute(
      sql`update slots set hold_reservation_id = gen_random_uuid(), hold_expires_at =
${new Date(NOW.getTime() + 600_000).toISOString()}::timestamptz where id = ${slotId}::uuid`,
    );
    clock.advance(t.app.config.AVAILABILITY_CACHE_MS - 1);
    expect(await statusOf(slotId)).toBe('available');
    clock.advance(1);
    expect(await statusOf(slotId)).toBe('reserved');
    // The hold itself was never in doubt: claiming the session answers 409 whatever a cached read said.
    const late = await t.app.inject({
      method: 'POST',
      url: '/api/v1/bookings/reservation',
      headers: family.headers,
      payload: { slotId },
    });
    expect(late.json().code).toBe('SLOT_UNAVAILABLE');
  });

  it('reads straight from the database with AVAILABILITY_CACHE_MS=0', async () => {
    const fresh = await createTestApp({ AVAILABILITY_CACHE_MS: '0' }, clock, undefined, { databaseUrl: t.databaseUrl });
    try {
      const url = slotsUrl.replace('2026-12-03', '2026-12-04');
      const id = (await fresh.app.inject({ url, headers: family.headers }))
        .json()
        .items.find((s: { kind: string }) => s.kind === 'session').id;
      await fresh.db.execute(
        sql`update slots set hold_reservation_id = gen_random_uuid(), hold_expires_at =
${new Date(NOW.getTime() + 600_000).toISOString()}::timestamptz where id = ${id}::uuid`,
      );
      const after = (await fresh.app.inject({ url, headers: family.headers }))
        .json()
        .items.find((s: { id: string }) => s.id === id);
      expect(after.status).toBe('reserved');
    } finally {
      await fresh.close();
    }
  });

  it('never caches refusals: a bad query or unknown location answers as before', async () => {
    expect((await read(slotsUrl.replace('date=2026-12-03', 'date=tomorrow'))).statusCode).toBe(400);
    expect(
      (await read('/api/v1/booking-slot/00000000-0000-4000-8000-000000000000/available-slots?date=2026-12-03'))
        .statusCode,
    ).toBe(404);
    expect((await t.app.inject({ url: slotsUrl })).statusCode).toBe(401);
  });
});
