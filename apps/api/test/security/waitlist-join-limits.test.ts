import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitCounters } from '../../src/db/schema/platform';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { WAITLIST_JOIN_LIMITS } from '../../src/modules/waitlist/waitlist-limits';
import { bucketKey } from '../../src/plugins/rate-limit';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { oneSessionDays, type OneSessionDay } from '../helpers/waitlist-days';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * Issue 36, probe case 3's waitlist half: joins are limited per account (10 an hour, 30 a day) and
 * per address (300 an hour), so a script can neither churn a line all day nor fill every line from
 * one address with many accounts. Every attempt counts; past a limit, 429 RATE_LIMITED.
 */
let t: TestApp;
let day: OneSessionDay;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_MODE: 'on' });
  await loadSeason(t.db, demoSeason(t.clock.now(), { days: 21 }), t.clock.now());
  day = (await oneSessionDays(t.db, 1))[0]!;
  // Sold out: another family holds the day's one session.
  const holder = await createCustomer(t.db, t.app.idTokens);
  expect(
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/bookings/reservation',
        headers: holder.headers,
        payload: { slotId: day.slotId },
      })
    ).statusCode,
  ).toBe(201);
});
afterAll(async () => t?.close());

const join = (who: TestCustomer, ip = '10.7.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/waitlist',
    remoteAddress: ip,
    headers: who.headers,
    payload: { locationId: day.locationId, slotTypeId: day.slotTypeId, date: day.date },
  });
const leave = (who: TestCustomer, id: string) =>
  t.app.inject({ method: 'DELETE', url: `/api/v1/waitlist/${id}`, headers: who.headers });
const fill = (name: string, value: string, count: number, ms: number) =>
  t.db
    .insert(rateLimitCounters)
    .values({ key: bucketKey(name, value), count, resetAt: new Date(t.clock.now().getTime() + ms) });

function expectRateLimited(res: Awaited<ReturnType<typeof join>>) {
  expect(res.statusCode, res.body).toBe(429);
  expect(res.json()).toMatchObject({ code: 'RATE_LIMITED' });
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
}

describe('waitlist joins are limited per account and per address', () => {
  it(
    'an account that joins and leaves the line over and over gets 10 joins an hour, then 429; another account still ' +
      'joins',
    async () => {
      const churner = await createCustomer(t.db, t.app.idTokens);
      for (let i = 0; i < WAITLIST_JOIN_LIMITS.perUser.max; i++) {
        const joined = await join(churner);
        expect(joined.statusCode, joined.body).toBe(201);
        expect((await leave(churner, joined.json<{ id: string }>().id)).statusCode).toBe(204);
      }
      expectRateLimited(await join(churner));
      // The same address, another family: not touched by the churner's count.
      expect((await join(await createCustomer(t.db, t.app.idTokens))).statusCode).toBe(201);
    },
  );

  it('30 joins a day per account (the daily cap), whatever the hour', async () => {
    const family = await createCustomer(t.db, t.app.idTokens);
    await fill('waitlist-join:user-day', family.id, WAITLIST_JOIN_LIMITS.perUserDay.max, 86_400_000);
    expectRateLimited(await join(family, '10.7.0.2'));
  });

  it(
    '300 joins an hour from one address, across any number of accounts; another address is not held ' + 'back',
    async () => {
      await fill('waitlist-join:ip', '10.7.0.3', WAITLIST_JOIN_LIMITS.perIp.max, 3_600_000);
      const family = await createCustomer(t.db, t.app.idTokens);
      expectRateLimited(await join(family, '10.7.0.3'));
      expect((await join(family, '10.7.0.4')).statusCode).toBe(201);
    },
  );

  it(
    "an IPv6 address counts by its /64: one home's other addresses share the count, another /64 does " + 'not',
    async () => {
      await fill('waitlist-join:ip', '2001:db8:7:3::/64', WAITLIST_JOIN_LIMITS.perIp.max, 3_600_000);
      const family = await createCustomer(t.db, t.app.idTokens);
      for (const ip of ['2001:db8:7:3::1', '2001:db8:7:3:9f2c:11ab:4d:e001']) expectRateLimited(await join(family, ip));
      expect((await join(family, '2001:db8:7:4::1')).statusCode).toBe(201);
    },
  );
});
