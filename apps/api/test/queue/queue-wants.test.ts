import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { listPackages } from '../../src/modules/catalogue/catalogue.repository';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { passLocation } from '../../src/modules/queue/queue-admission.service';
import { createCustomers, reauthenticate, type TestCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';

const NOW = new Date('2026-12-01T00:00:00Z'); // 11:00 AEDT in Sydney
const OPENS_AT = new Date('2026-12-01T00:30:00Z'); // sales open 11:30 AEDT

/**
 * Issue 55, "choose before the opening" (decision 0116): a family that gave `wants` in the line is
 * holding, at its admission, the first free session matching them; none matching → admitted to choose.
 */
describe('the fair start: choose before the opening', () => {
  let t: TestApp;
  let clock: ManualClock;
  let families: TestCustomer[];
  let locationId: string;
  let otherTypeId: string;
  let wants: {
    slotTypeId: string;
    date: string;
    from: string;
    to: string;
    packages: { id: string; quantity: number }[];
  };
  /** The sessions of the chosen day and window, earliest first. */
  let matching: string[];
  const url = () => `/api/v1/queue/${locationId}`;
  const join = (who: TestCustomer, body?: object) =>
    t.app.inject({ method: 'POST', url: url(), headers: who.headers, ...(body ? { payload: body } : {}) });
  const ticket = async (who: TestCustomer) => (await t.app.inject({ url: url(), headers: who.headers })).json();
  const stored = async (who: TestCustomer) =>
    (
      await t.db.execute(
        sql`select wants from queue_tickets where location_id = ${locationId}::uuid and user_id = ${who.id}::uuid`,
      )
    ).rows[0]?.wants;

  beforeAll(async () => {
    clock = new ManualClock(NOW);
    t = await createTestApp({ QUEUE_ADMIT_FACTOR: '1' }, clock);
    const s = demoSeason(NOW);
    s.locations[0] = { ...s.locations[0]!, salesOpenAt: '2026-12-01T11:30', queue: { opensMinutesBefore: 60 } };
    await loadSeason(t.db, s, NOW);
    families = await createCustomers(t.db, t.app.idTokens, 5);
    locationId = (await t.app.inject({ url: '/api/v1/common/locations', headers: families[0]!.headers })).json()
      .items[0].id;
    const types = (
      await t.db
        .execute(sql`select id, slug, location_id from slot_types order by location_id = ${locationId}::uuid desc,
        sort_order`)
    ).rows;
    const type = types[0]!;
    otherTypeId = types.find((r) => r.location_id !== locationId)!.id as string;
    // Three sessions of one day in a window: families asking for it get them earliest first.
    const day = (
      await t.db.execute(sql`select s.id, (s.start_at at time zone 'Australia/Sydney') as local from slots s
        where s.location_id = ${locationId}::uuid and s.slot_type_id = ${type.id as string}::uuid
          and s.kind = 'session' and s.start_at > ${'2026-12-05T00:00:00Z'}::timestamptz
        order by s.start_at limit 4`)
    ).rows;
    const local = (i: number) => String(day[i]!.local).replace(' ', 'T');
    matching = day.slice(0, 3).map((r) => r.id as string);
    const packageId = (await listPackages(t.db, type.slug as string))[0]!.id;
    wants = {
      slotTypeId: type.id as string,
      date: local(0).slice(0, 10),
      from: local(0).slice(11, 16),
      to: local(3).slice(11, 16),
      packages: [{ id: packageId, quantity: 1 }],
    };
    expect(local(3).slice(0, 10)).toBe(wants.date);
    // Stock of three sessions, so QUEUE_ADMIT_FACTOR 1 admits three families at a time.
    await t.db.execute(sql`update slots set blocked = true where location_id = ${locationId}::uuid
      and kind = 'session' and id <> all(${`{${matching.join(',')}}`}::uuid[])`);
    t.app.queueGate.forget();
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses wants that do not fit the location, writing nothing', async () => {
    const [a] = families;
    const otherType = await join(a!, { wants: { ...wants, slotTypeId: otherTypeId } });
    expect(otherType.statusCode).toBe(400);
    expect(otherType.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    const badPackage = await join(a!, { wants: { ...wants, packages: [{ id: otherTypeId, quantity: 1 }] } });
    expect(badPackage.statusCode).toBe(400);
    expect(badPackage.json().details[0].path).toBe('wants.packages.0.id');
    const window = await join(a!, { wants: { ...wants, from: '12:00', to: '11:00' } });
    expect(window.statusCode).toBe(400);
    const tooMany = await join(a!, { wants: { ...wants, packages: [{ id: wants.packages[0]!.id, quantity: 4 }] } });
    expect(tooMany.statusCode).toBe(400);
    expect(await stored(a!)).toBeUndefined();
  });

  it('keeps the wants while waiting; at the admission, holds the first matching session in line order', async () => {
    const [a, b, c, d, e] = families as [TestCustomer, TestCustomer, TestCustomer, TestCustomer, TestCustomer];
    for (const who of [a, b]) {
      const joined = await join(who, { wants });
      expect(joined.statusCode, joined.body).toBe(200);
      expect(joined.json()).toMatchObject({ status: 'before_open', wants, reservation: null });
    }
    // Joining again without wants (another tab) keeps them and says so.
    expect((await join(a)).json().wants).toEqual(wants);
    // Changed its mind before the draw: the new wants replace the old.
    expect((await join(b, { wants: { ...wants, from: '00:00' } })).json().wants.from).toBe('00:00');
    expect((await join(b, { wants })).statusCode).toBe(200);
    // A family choosing nothing, and one whose day has no session of that type: both admitted to choose.
    expect((await join(c)).statusCode).toBe(200);
    expect(
      (await join(d, { wants: { ...wants, date: '2026-12-02', from: undefined, to: undefined } })).statusCode,
    ).toBe(200);
    expect((await join(e, { wants })).statusCode).toBe(200);

    clock.set(new Date(OPENS_AT.getTime() + 500));
    families = await Promise.all(families.map((f) => reauthenticate(t.app.idTokens, f)));
    await passLocation(t.app, locationId);

    const order = (
      await t.db.execute(
        sql`select user_id from queue_tickets where location_id = ${locationId}::uuid order by line_key`,
      )
    ).rows.map((r) => families.find((f) => f.id === r.user_id)!);
    const tickets = await Promise.all(order.map(ticket));
    expect(tickets.map((x) => x.status)).toEqual(['admitted', 'admitted', 'admitted', 'waiting', 'waiting']);
    // The admitted with matching wants hold the window's sessions earliest first, in line order.
    const admitted = order.slice(0, 3);
    const wanting = admitted.filter((f) => f.id === a.id || f.id === b.id || f.id === e.id);
    const held = (await Promise.all(wanting.map(ticket))).map((x) => x.reservation?.slotId);
    expect(held).toEqual(matching.slice(0, wanting.length));
    for (const f of admitted.filter((x) => !wanting.includes(x))) expect((await ticket(f)).reservation).toBeNull();
    const first = (await ticket(wanting[0]!)).reservation;
    expect(first).toMatchObject({ status: 'active', locationId, bookingId: null });
    // A real hold: the family's own reservation, with the usual countdown.
    const mine = await t.app.inject({ url: `/api/v1/bookings/reservation/${first.id}`, headers: wanting[0]!.headers });
    expect(mine.statusCode).toBe(200);
    expect(mine.json().expiresAt).toBe(first.expiresAt);
    // After its admission the wants stay as they were.
    const late = await join(wanting[0]!, { wants: { ...wants, from: '00:00' } });
    expect(late.json().wants).toEqual(wants);
  });
});
