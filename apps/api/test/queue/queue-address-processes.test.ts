import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import type { IdTokens } from '../../src/modules/accounts/id-tokens';
import { startApiProcesses, type ApiProcesses } from '../helpers/api-processes';
import { createCustomers, type TestCustomer } from '../helpers/customers';
import { createProcessesDatabase } from '../helpers/processes-database';

const CAP = 3;

/**
 * Issue 48 item 13 (API.md "Fair start, round two"): a line takes at most QUEUE_TICKETS_PER_ADDRESS
 * tickets from one address, counted in the database under the address's lock, so the cap holds
 * across API processes: two real processes, the client's address in X-Forwarded-For (TRUST_PROXY,
 * as behind nginx). An IPv6 client counts by its /64 (decision 0074); the address is stored hashed.
 */
describe('waiting-room tickets per address, across two API processes', () => {
  let api: ApiProcesses;
  let db: Db;
  let close: () => Promise<void>;
  let idTokens: IdTokens;
  let lines: string[];

  beforeAll(async () => {
    const conn = await createProcessesDatabase({ season: { days: 14 } });
    ({ db, idTokens, close } = conn);
    // Each location's sales open in an hour, its waiting room open from now (before the opening).
    const opensAt = new Date(Date.now() + 3_600_000).toISOString();
    await db.execute(
      sql`update locations set sales_open_at = ${opensAt}::timestamptz, queue_opens_minutes_before = 120`,
    );
    lines = (await db.execute(sql`select id from locations order by sort_order`)).rows.map((r) => r.id as string);
    api = await startApiProcesses(2, {
      ...conn.env,
      RATE_LIMIT_MODE: 'on',
      TRUST_PROXY: 'true',
      QUEUE_TICKETS_PER_ADDRESS: String(CAP),
    });
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await close?.();
  });

  const join = (process: number, who: TestCustomer, locationId: string, ip: string) =>
    fetch(`${api.urls[process]}/api/v1/queue/${locationId}`, {
      method: 'POST',
      headers: { ...who.headers, 'x-forwarded-for': ip },
    }).then(async (res) => ({
      status: res.status,
      code: ((await res.json()) as { code?: string }).code,
      retryAfter: res.headers.get('retry-after'),
    }));

  it(
    'tickets joined through either process count against one cap; the same account keeps its ticket; another ' +
      'address is not held back',
    async () => {
      const line = lines[0]!;
      const families = await createCustomers(db, idTokens, CAP + 2);
      for (let i = 0; i < CAP; i++) expect((await join(i % 2, families[i]!, line, '10.48.0.1')).status).toBe(200);
      for (const process of [0, 1]) {
        const refused = await join(process, families[CAP]!, line, '10.48.0.1');
        expect(refused).toMatchObject({ status: 429, code: 'RATE_LIMITED' });
        expect(Number(refused.retryAfter)).toBeGreaterThan(0);
      }
      // Asking again for a ticket it has is not a new ticket.
      expect((await join(1, families[0]!, line, '10.48.0.1')).status).toBe(200);
      expect((await join(0, families[CAP]!, line, '10.48.0.2')).status).toBe(200);
      // Another line has its own count.
      expect((await join(1, families[CAP + 1]!, lines[1]!, '10.48.0.1')).status).toBe(200);
      const n = await db.execute(sql`select count(*)::int as n from queue_tickets where location_id = ${line}::uuid`);
      expect(n.rows[0]!.n).toBe(CAP + 1);
      // Stored as a keyed hash, never the address.
      const stored = (await db.execute(sql`select distinct join_address from queue_tickets`)).rows.map(
        (r) => r.join_address as string,
      );
      expect(stored).toHaveLength(2);
      for (const a of stored) expect(a).toMatch(/^[A-Za-z0-9_-]{22}$/);
    },
    60_000,
  );

  it('an IPv6 client counts by its /64, however many of its addresses it uses', async () => {
    const line = lines[1]!;
    const families = await createCustomers(db, idTokens, CAP + 1);
    for (let i = 0; i < CAP; i++)
      expect((await join(i % 2, families[i]!, line, `2001:db8:48:1::${i + 1}`)).status).toBe(200);
    expect(await join(0, families[CAP]!, line, '2001:db8:48:1:ffff:1:2:3')).toMatchObject({
      status: 429,
      code: 'RATE_LIMITED',
    });
    expect((await join(1, families[CAP]!, line, '2001:db8:48:2::1')).status).toBe(200);
  }, 60_000);

  it('a burst from one address landing on both processes at once gets exactly the cap', async () => {
    const line = lines[2] ?? lines[0]!;
    const families = await createCustomers(db, idTokens, 12);
    const answers = await Promise.all(families.map((f, i) => join(i % 2, f, line, '10.48.9.9')));
    expect(answers.every((a) => a.status === 200 || (a.status === 429 && a.code === 'RATE_LIMITED'))).toBe(true);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(CAP);
  }, 60_000);
});
