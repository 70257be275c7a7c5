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
const MINUTE = 60_000;

/**
 * Issue 55: a place survives a dropped connection for QUEUE_RECONNECT_SECONDS (300) after the
 * family's last poll or stream, as Cloudflare's waiting room keeps one 5 minutes; gone longer, the
 * family is told `lapsed` and may rejoin at the back, once.
 */
describe('the fair start: a place that survives a dropped connection', () => {
  let t: TestApp;
  let clock: ManualClock;
  let families: TestCustomer[];
  let locationId: string;
  const url = () => `/api/v1/queue/${locationId}`;
  const poll = (who: TestCustomer) => t.app.inject({ url: url(), headers: who.headers });
  const status = async (who: TestCustomer) => (await poll(who)).json().status as string;
  const join = (who: TestCustomer) => t.app.inject({ method: 'POST', url: url(), headers: who.headers });
  const at = async (ms: number) => {
    clock.set(new Date(OPENS_AT.getTime() + ms));
    families = await Promise.all(families.map((f) => reauthenticate(t.app.idTokens, f)));
  };
  const pass = () => passLocation(t.app, locationId);
  /** The families in drawn order, as the line has them now (tokens refreshed with the clock). */
  const inOrder = async () =>
    (
      await t.db.execute(sql`select user_id from queue_tickets where location_id = ${locationId}::uuid
        order by line_key`)
    ).rows.map((r) => families.find((f) => f.id === r.user_id)!);

  beforeAll(async () => {
    clock = new ManualClock(NOW);
    // One session on sale and one admission at a time that does not end meanwhile: the others wait.
    t = await createTestApp({ QUEUE_ADMIT_FACTOR: '1', QUEUE_IDLE_SECONDS: '3600', QUEUE_ADMIT_MINUTES: '60' }, clock);
    const s = demoSeason(NOW);
    s.locations[0] = { ...s.locations[0]!, salesOpenAt: '2026-12-01T11:30', queue: { opensMinutesBefore: 60 } };
    await loadSeason(t.db, s, NOW);
    families = await createCustomers(t.db, t.app.idTokens, 3);
    locationId = (await t.app.inject({ url: '/api/v1/common/locations', headers: families[0]!.headers })).json()
      .items[0].id;
    const [keep] = (
      await t.db.execute(sql`select id from slots where location_id = ${locationId}::uuid and kind = 'session'
        and start_at > ${'2026-12-03T00:00:00Z'}::timestamptz order by start_at limit 1`)
    ).rows;
    await t.db.execute(sql`update slots set blocked = true where location_id = ${locationId}::uuid
      and kind = 'session' and id <> ${keep!.id as string}::uuid`);
    t.app.queueGate.forget();
    for (const f of families) expect((await join(f)).statusCode).toBe(200);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('seen within 5 minutes keeps the place; gone longer is told lapsed and rejoins at the back, once', async () => {
    await at(-10_000);
    for (const f of families) expect(await status(f)).toBe('before_open');
    await at(500);
    await pass();
    const [first, second, third] = await inOrder();
    expect([await status(first!), await status(second!), await status(third!)]).toEqual([
      'admitted',
      'waiting',
      'waiting',
    ]);
    // The third family's phone drops off; the second keeps polling.
    await at(4 * MINUTE);
    expect(await status(second!)).toBe('waiting');
    await at(5 * MINUTE + 1000);
    await pass();
    // 5 minutes 11 s since the third was last seen (10 s before the opening): its place passed on.
    expect(await status(second!)).toBe('waiting');
    expect((await poll(third!)).json()).toMatchObject({ status: 'lapsed', position: null, ahead: null });
    const staff = await t.db.execute(sql`select status from queue_tickets where user_id = ${third!.id}::uuid`);
    expect(staff.rows[0]!.status).toBe('lapsed');

    // Back: to the back of the line, once (third of three: places are counted in the line's order, decision 0117).
    const back = await join(third!);
    expect(back.json()).toMatchObject({ status: 'waiting', position: 3, ahead: 1 });
    await at(11 * MINUTE);
    expect(await status(second!)).toBe('waiting');
    await pass();
    expect(await status(third!)).toBe('lapsed');
    expect((await join(third!)).json().status).toBe('lapsed');
    expect(await status(second!)).toBe('waiting');
  });
});
