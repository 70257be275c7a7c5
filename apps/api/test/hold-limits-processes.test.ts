import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../src/db/client';
import type { IdTokens } from '../src/modules/accounts/id-tokens';
import { startApiProcesses, type ApiProcesses } from './support/api-processes';
import { createCustomers } from './support/customers';
import { createProcessesDatabase } from './support/processes-database';

/**
 * API.md "Abuse limits" (decision 0059): one live hold per family, whatever the concurrency. Each
 * family asks two real API processes at the same moment for two different sessions.
 */
describe('one hold per family across two API processes', () => {
  let api: ApiProcesses;
  let db: Db;
  let close: () => Promise<void>;
  let idTokens: IdTokens;
  let sessionIds: string[];

  beforeAll(async () => {
    const conn = await createProcessesDatabase({ season: { days: 42 } });
    ({ db, idTokens, close } = conn);
    const rows = await db.execute(sql`
      select id from slots where kind = 'session' and start_at > now() + interval '1 day' order by start_at limit 80`);
    sessionIds = rows.rows.map((r) => r.id as string);
    api = await startApiProcesses(2, conn.env);
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await close?.();
  });

  const attempt = (i: number, headers: { authorization: string }, slotId: string) =>
    fetch(`${api.urls[i]}/api/v1/bookings/reservation`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ slotId }),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as { code?: string; slotId?: string } }));

  it('40 families each ask both processes for two sessions at once: exactly one hold each, the other HOLD_LIMIT', async () => {
    const families = await createCustomers(db, idTokens, 40);
    const results = await Promise.all(
      families.map((f, i) => Promise.all([attempt(0, f.headers, sessionIds[2 * i]!), attempt(1, f.headers, sessionIds[2 * i + 1]!)])),
    );
    for (const pair of results) {
      expect(pair.map((r) => r.status).sort()).toEqual([201, 409]);
      expect(pair.find((r) => r.status === 409)!.body.code).toBe('HOLD_LIMIT');
    }
    const ids = families.map((f) => f.id);
    const active = await db.execute(sql`
      select user_id, count(*)::int as n from reservations
      where status = 'active' and user_id = any(${sql.param(ids)}::uuid[]) group by user_id`);
    expect(active.rows).toHaveLength(40);
    expect(active.rows.every((r) => r.n === 1)).toBe(true);
    // The losers' sessions were never claimed: 40 of the 80 are held, by the winners' holds.
    const held = await db.execute(sql`
      select count(*)::int as n from slots s join reservations r on r.id = s.hold_reservation_id
      where s.id = any(${sql.param(sessionIds)}::uuid[]) and r.status = 'active'`);
    expect(held.rows[0]!.n).toBe(40);
  }, 120_000);
});
