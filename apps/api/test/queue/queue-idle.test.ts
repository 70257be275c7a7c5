import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { passLocation } from '../../src/modules/queue/queue-admission.service';
import { createCustomers, reauthenticate, type TestCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';

const NOW = new Date('2026-12-01T00:00:00Z'); // 11:00 AEDT in Sydney
const OPENS_AT = new Date('2026-12-01T00:30:00Z'); // sales open 11:30 AEDT
const IDLE_SECONDS = 60;

/**
 * Issue 55: an admission not used (no hold taken) within QUEUE_IDLE_SECONDS passes to the next
 * family, as AWS's waiting room stalls without (its issue 154); a family who took a hold keeps it.
 */
describe('the fair start: an admission not used passes on', () => {
  let t: TestApp;
  let clock: ManualClock;
  let families: TestCustomer[];
  let locationId: string;
  let sessions: string[];
  const url = () => `/api/v1/queue/${locationId}`;
  const status = async (who: TestCustomer) =>
    (await t.app.inject({ url: url(), headers: who.headers })).json().status as string;
  const at = async (ms: number) => {
    clock.set(new Date(OPENS_AT.getTime() + ms));
    families = await Promise.all(families.map((f) => reauthenticate(t.app.idTokens, f)));
    await passLocation(t.app, locationId);
  };

  beforeAll(async () => {
    clock = new ManualClock(NOW);
    t = await createTestApp({ QUEUE_IDLE_SECONDS: String(IDLE_SECONDS), QUEUE_ADMIT_FACTOR: '1' }, clock);
    const s = demoSeason(NOW);
    s.locations[0] = { ...s.locations[0]!, salesOpenAt: '2026-12-01T11:30', queue: { opensMinutesBefore: 60 } };
    await loadSeason(t.db, s, NOW);
    families = await createCustomers(t.db, t.app.idTokens, 4);
    locationId = (await t.app.inject({ url: '/api/v1/common/locations', headers: families[0]!.headers })).json()
      .items[0].id;
    sessions = (
      await t.db.execute(sql`select id from slots where location_id = ${locationId}::uuid and kind = 'session'
        and start_at > ${'2026-12-03T00:00:00Z'}::timestamptz order by start_at limit 2`)
    ).rows.map((r) => r.id as string);
    // Two sessions on sale: with QUEUE_ADMIT_FACTOR 1, two families are admitted at a time.
    await t.db.execute(sql`update slots set blocked = true where location_id = ${locationId}::uuid
      and kind = 'session' and id <> all(${`{${sessions.join(',')}}`}::uuid[])`);
    t.app.queueGate.forget();
    for (const f of families)
      expect((await t.app.inject({ method: 'POST', url: url(), headers: f.headers })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('the family who holds keeps its turn; one who does nothing passes it on after QUEUE_IDLE_SECONDS', async () => {
    await at(500);
    const order = (
      await t.db.execute(
        sql`select user_id from queue_tickets where location_id = ${locationId}::uuid order by line_key`,
      )
    ).rows.map((r) => families.find((f) => f.id === r.user_id)!);
    expect(await Promise.all(order.map(status))).toEqual(['admitted', 'admitted', 'waiting', 'waiting']);
    const held = await t.app.inject({
      method: 'POST',
      url: '/api/v1/bookings/reservation',
      headers: order[0]!.headers,
      payload: { slotId: sessions[0] },
    });
    expect(held.statusCode, held.body).toBe(201);

    // Just before the idle time: nothing changes.
    await at(500 + (IDLE_SECONDS - 1) * 1000);
    expect(await Promise.all(order.map(status))).toEqual(['admitted', 'admitted', 'waiting', 'waiting']);
    // After it: the second family, idle, is closed and the third admitted; the first, holding, keeps its admission.
    await at(500 + (IDLE_SECONDS + 1) * 1000);
    expect(await Promise.all(order.map(status))).toEqual(['admitted', 'closed', 'admitted', 'waiting']);
  });
});
