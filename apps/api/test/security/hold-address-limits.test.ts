import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock';
import { batchHold } from '../../src/modules/sessions/hold-statements.repository';
import { holdAddressOf } from '../../src/modules/sessions/hold-address';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { createCustomers, reauthenticate, type TestCustomer } from '../helpers/customers';
import { holdArgs } from '../helpers/hold-args';
import { createTestApp, type TestApp } from '../helpers/test-app';

const NOW = new Date('2026-12-01T00:00:00Z');
const MINUTE = 60_000;
/** The default (decision 0069): these tests prove the number operators get, not a test-sized one. */
const CAP = 10;

/**
 * Issue 36, probe case 3's address half (decision 0069): many accounts from one address cannot hold
 * a location's day. At most HOLD_ADDRESS_LIMIT sessions of one location's day are on hold at once
 * from one address; the next is 429 RATE_LIMITED with Retry-After until the first of them ends.
 * Other addresses, other days and other locations are not held back, and a shopping centre's
 * Wi-Fi with dozens of families booking as families do is never refused.
 */
let t: TestApp;
let clock: ManualClock;
/** Sessions by location and local day: `days[location][day]`, each day's in time order. */
let days: string[][][];

beforeAll(async () => {
  clock = new ManualClock(NOW);
  t = await createTestApp({ RATE_LIMIT_MODE: 'on' }, clock);
  await loadSeason(t.db, demoSeason(NOW, { days: 42 }), NOW);
  const rows = await t.db.execute(sql`
    select s.id, s.location_id, (s.start_at at time zone l.timezone)::date::text as day
    from slots s join locations l on l.id = s.location_id join slot_types st on st.id = s.slot_type_id
    where s.kind = 'session' and st.slug = 'standard' and s.start_at > ${NOW.toISOString()}::timestamptz + interval
    '3 days'
    order by l.name, s.start_at`);
  const byLocation = new Map<string, Map<string, string[]>>();
  for (const r of rows.rows) {
    const location = byLocation.get(r.location_id as string) ?? new Map<string, string[]>();
    byLocation.set(r.location_id as string, location);
    location.set(r.day as string, [...(location.get(r.day as string) ?? []), r.id as string]);
  }
  days = [...byLocation.values()].map((location) => [...location.values()].filter((sessions) => sessions.length >= 20));
  expect(days.length).toBeGreaterThanOrEqual(2);
  expect(days[0]!.length).toBeGreaterThanOrEqual(15);
});
beforeEach(() => clock.set(NOW));
afterAll(async () => t?.close());

interface Answer {
  status: number;
  code?: string;
  error?: string;
  id?: string;
  retryAfter?: string;
}
const hold = async (who: TestCustomer, slotId: string, ip: string): Promise<Answer> => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/bookings/reservation',
    remoteAddress: ip,
    headers: who.headers,
    payload: { slotId },
  });
  const body = res.json<{ code?: string; error?: string; id?: string }>();
  return { ...body, status: res.statusCode, retryAfter: res.headers['retry-after'] as string | undefined };
};
const cancel = (who: TestCustomer, id: string) =>
  t.app.inject({ method: 'POST', url: `/api/v1/bookings/reservation/${id}/cancel`, headers: who.headers });
const families = (n: number) => createCustomers(t.db, t.app.idTokens, n);

describe('sessions held per address (HOLD_ADDRESS_LIMIT)', () => {
  it(
    `one address with many accounts holds at most ` +
      `${CAP} sessions of a location's day; the next is 429 with Retry-After, and another address takes that session`,
    async () => {
      const day = days[0]![0]!;
      const script = await families(CAP + 2);
      for (let i = 0; i < CAP; i++) {
        expect((await hold(script[i]!, day[i]!, '10.36.0.1')).status).toBe(201);
        clock.advance(30_000);
      }
      const refused = await hold(script[CAP]!, day[CAP]!, '10.36.0.1');
      expect(refused).toMatchObject({
        status: 429,
        code: 'RATE_LIMITED',
        error: expect.stringContaining('internet connection'),
      });
      // The first hold ends 10 minutes (HOLD_MINUTES) after it was taken, 5 minutes ago.
      expect(refused.retryAfter).toBe('300');
      // Refused, not taken: the session is free for anyone else.
      const elsewhere = await hold(script[CAP]!, day[CAP]!, '10.36.0.2');
      expect(elsewhere.status).toBe(201);
      const held = await t.db.execute(
        sql`select count(*)::int as n from reservations where slot_id =
any(${sql.param(day.slice(0, CAP + 1))}::uuid[]) and status = 'active'`,
      );
      expect(held.rows[0]!.n).toBe(CAP + 1);
    },
  );

  it('counts until a hold ends: a release gives its place back at once, and lapsed holds count no more', async () => {
    const day = days[0]![1]!;
    const script = await families(CAP + 2);
    const ids: string[] = [];
    for (let i = 0; i < CAP; i++) ids.push((await hold(script[i]!, day[i]!, '10.36.1.1')).id!);
    const refused = await hold(script[CAP]!, day[CAP]!, '10.36.1.1');
    expect(refused).toMatchObject({ status: 429, retryAfter: '600' });
    expect((await cancel(script[0]!, ids[0]!)).statusCode).toBe(200);
    expect((await hold(script[CAP]!, day[CAP]!, '10.36.1.1')).status).toBe(201);
    expect((await hold(script[CAP + 1]!, day[CAP + 1]!, '10.36.1.1')).status).toBe(429);
    // Every hold has lapsed (the sweep has not come by: no job runs here).
    clock.advance(10 * MINUTE);
    const later = await families(1);
    expect((await hold(later[0]!, day[CAP + 2]!, '10.36.1.1')).status).toBe(201);
  });

  it(
    "is per location and day: the same address still holds another day's sessions and another " + "location's",
    async () => {
      const [dayA, dayB] = [days[0]![2]!, days[0]![3]!];
      const otherLocation = days[1]![2]!;
      const script = await families(CAP + 2);
      for (let i = 0; i < CAP; i++) expect((await hold(script[i]!, dayA[i]!, '10.36.2.1')).status).toBe(201);
      expect((await hold(script[CAP]!, dayA[CAP]!, '10.36.2.1')).status).toBe(429);
      expect((await hold(script[CAP]!, dayB[0]!, '10.36.2.1')).status).toBe(201);
      expect((await hold(script[CAP + 1]!, otherLocation[0]!, '10.36.2.1')).status).toBe(201);
    },
  );

  it(
    'one statement carrying a burst of one address (the drop-day batch) takes no more than the cap, counting the ' +
      'burst itself',
    async () => {
      const day = days[0]![13]!;
      const script = await families(CAP + 3);
      const address = holdAddressOf(t.app, '10.36.4.1');
      const now = clock.now();
      const outcomes = await batchHold(
        t.app.pool,
        script.map((f, i) => holdArgs(f.id, day[i]!, now, { address, addressLimit: CAP })),
      );
      expect(outcomes.map((o) => o.held)).toEqual(script.map((_, i) => i < CAP));
      expect(outcomes.slice(CAP).every((o) => o.addressFullUntil?.getTime() === now.getTime() + 10 * MINUTE)).toBe(
        true,
      );
    },
  );

  it('counts an IPv6 client by its /64 (one home, one place), and another /64 is not held back', async () => {
    const day = days[0]![4]!;
    const script = await families(CAP + 1);
    for (let i = 0; i < CAP; i++)
      expect((await hold(script[i]!, day[i]!, `2001:db8:36:1::${(i + 1).toString(16)}`)).status).toBe(201);
    expect((await hold(script[CAP]!, day[CAP]!, '2001:db8:36:1:ffff:ffff:ffff:1')).status).toBe(429);
    expect((await hold(script[CAP]!, day[CAP]!, '2001:db8:36:2::1')).status).toBe(201);
  });

  it(
    'holds that take the general way are counted too: a family whose last hold lapsed unswept is refused at the ' +
      'cap',
    async () => {
      const [day, elsewhere] = [days[0]![14]!, days[1]![3]!];
      const [late] = await families(1);
      expect((await hold(late!, elsewhere[0]!, '10.36.5.9')).status).toBe(201);
      clock.advance(10 * MINUTE);
      const script = await families(CAP);
      for (let i = 0; i < CAP; i++) expect((await hold(script[i]!, day[i]!, '10.36.5.1')).status).toBe(201);
      // Its lapsed hold (no sweep job here) sends it the general way, which sweeps it, then counts.
      const again = await reauthenticate(t.app.idTokens, late!);
      expect(await hold(again, day[CAP]!, '10.36.5.1')).toMatchObject({
        status: 429,
        code: 'RATE_LIMITED',
        retryAfter: '600',
      });
      expect((await hold(again, day[CAP]!, '10.36.5.2')).status).toBe(201);
    },
  );

  it(
    'a family already holding a session asks again for it: the same hold (200), even with its address at the ' + 'cap',
    async () => {
      const day = days[0]![5]!;
      const script = await families(CAP);
      for (let i = 0; i < CAP; i++) expect((await hold(script[i]!, day[i]!, '10.36.3.1')).status).toBe(201);
      expect((await hold(script[0]!, day[0]!, '10.36.3.1')).status).toBe(200);
    },
  );

  it(
    "a shopping centre's Wi-Fi: 40 families at the opening, each going for the day it wants, then a morning of a " +
      'family a minute, none refused',
    async () => {
      const wifi = '10.36.9.1';
      // The opening: 40 families at once, their wishes spread over the week (at most 8 on one day).
      const opening = await families(40);
      const wishes = opening.map((f, i) => ({
        f,
        slotId: days[0]![i % 5 === 0 ? 6 : 7 + (i % 5)]![Math.floor(i / 5)]!,
      }));
      const answers = await Promise.all(wishes.map(({ f, slotId }) => hold(f, slotId, wifi)));
      expect(answers.map((a) => a.status)).toEqual(answers.map(() => 201));
      // A family pays (or lets go) within about 5 minutes, so the holds end: cancelled here, which
      // frees the session as a payment frees the hold.
      await Promise.all(answers.map((a, i) => cancel(opening[i]!, a.id!)));
      // Then one family a minute for two hours, all for the same popular day, each done in 5 minutes.
      const live: { who: TestCustomer; id: string; ends: number }[] = [];
      const popular = days[0]![12]!;
      for (let minute = 0; minute < 120; minute++) {
        clock.set(new Date(NOW.getTime() + (minute + 20) * MINUTE));
        for (const done of live.filter((h) => h.ends <= minute)) await cancel(done.who, done.id);
        live.splice(0, live.length, ...live.filter((h) => h.ends > minute));
        // Signed in now (an ID token lasts 15 minutes of this clock).
        const [who] = await families(1);
        const answer = await hold(who!, popular[minute % popular.length]!, wifi);
        expect(answer.status, `minute ${minute}`).toBe(201);
        live.push({ who: who!, id: answer.id!, ends: minute + 5 });
      }
    },
    120_000,
  );
});
