import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import type { IdTokens } from '../../src/modules/accounts/id-tokens';
import { startApiProcesses, type ApiProcesses } from '../helpers/api-processes';
import { createCustomers } from '../helpers/customers';
import { createProcessesDatabase } from '../helpers/processes-database';

const CAP = 3;

/**
 * Decision 0069: the sessions one address holds on a location's day are counted in the database,
 * in the hold's own statement, so the cap holds across API processes behind a load balancer: two
 * real processes, the client's address in X-Forwarded-For (TRUST_PROXY=true, as behind nginx).
 */
describe('sessions held per address, across two API processes', () => {
  let api: ApiProcesses;
  let db: Db;
  let close: () => Promise<void>;
  let idTokens: IdTokens;
  let day: string[];
  let burstDay: string[];

  beforeAll(async () => {
    const conn = await createProcessesDatabase({ season: { days: 21 } });
    ({ db, idTokens, close } = conn);
    const rows = await db.execute(sql`
      select s.id, (s.start_at at time zone l.timezone)::date::text as day, s.location_id
      from slots s join locations l on l.id = s.location_id
      where s.kind = 'session' and s.start_at > now() + interval '2 days' order by s.location_id, s.start_at`);
    const byDay = new Map<string, string[]>();
    for (const r of rows.rows)
      byDay.set(`${r.location_id} ${r.day}`, [...(byDay.get(`${r.location_id} ${r.day}`) ?? []), r.id as string]);
    [day, burstDay] = [...byDay.values()].filter((ids) => ids.length >= 14) as [string[], string[]];
    api = await startApiProcesses(2, {
      ...conn.env,
      RATE_LIMIT_MODE: 'on',
      TRUST_PROXY: 'true',
      HOLD_ADDRESS_LIMIT: String(CAP),
    });
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await close?.();
  });

  const hold = (process: number, headers: { authorization: string }, slotId: string, ip: string) =>
    fetch(`${api.urls[process]}/api/v1/bookings/reservation`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json', 'x-forwarded-for': ip },
      body: JSON.stringify({ slotId }),
    }).then(async (res) => ({
      status: res.status,
      code: ((await res.json()) as { code?: string }).code,
      retryAfter: res.headers.get('retry-after'),
    }));

  it('holds taken through either process count against one cap; another address is not held back', async () => {
    const script = await createCustomers(db, idTokens, CAP + 2);
    for (let i = 0; i < CAP; i++)
      expect((await hold(i % 2, script[i]!.headers, day[i]!, '10.69.0.1')).status).toBe(201);
    for (const process of [0, 1]) {
      const refused = await hold(process, script[CAP]!.headers, day[CAP]!, '10.69.0.1');
      expect(refused).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
      expect(Number(refused.retryAfter)).toBeGreaterThan(500);
    }
    expect((await hold(1, script[CAP]!.headers, day[CAP]!, '10.69.0.2')).status).toBe(201);
  }, 60_000);

  it(
    'a burst from one address landing on both processes at once takes at most the cap on each (decision 0069: the ' +
      'bound)',
    async () => {
      const script = await createCustomers(db, idTokens, 12);
      const answers = await Promise.all(script.map((f, i) => hold(i % 2, f.headers, burstDay[i]!, '10.69.1.1')));
      const held = answers.filter((a) => a.status === 201).length;
      expect(answers.every((a) => a.status === 201 || (a.status === 429 && a.code === 'RATE_LIMITED'))).toBe(true);
      expect(held).toBeGreaterThanOrEqual(CAP);
      expect(held).toBeLessThanOrEqual(CAP * 2);
      // Once the burst is in, neither process lets the address take more.
      const [late] = await createCustomers(db, idTokens, 1);
      for (const process of [0, 1])
        expect((await hold(process, late!.headers, burstDay[12 + process]!, '10.69.1.1')).status).toBe(429);
    },
    60_000,
  );
});
