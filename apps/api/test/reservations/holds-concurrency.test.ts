import { and, eq, isNotNull, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import { slots } from '../../src/db/schema/catalogue';
import { reservations } from '../../src/db/schema/reservations';
import { verifyAuditChain } from '../../src/modules/audit/audit-chain.repository';
import type { IdTokens } from '../../src/modules/accounts/id-tokens';
import { startApiProcesses, type ApiProcesses } from '../helpers/api-processes';
import { createCustomers } from '../helpers/customers';
import { createProcessesDatabase } from '../helpers/processes-database';

/**
 * API.md: "Two customers can never hold or book the same slot, whatever the concurrency, across
 * any number of API processes." Proven here with three real API processes on one PostgreSQL; and
 * "Abuse limits": one live hold per family, whatever the concurrency (decision 0059).
 */
describe('holds under contention, three API processes', () => {
  let api: ApiProcesses;
  let db: Db;
  let close: () => Promise<void>;
  let idTokens: IdTokens;
  let sessionIds: string[];

  beforeAll(async () => {
    const conn = await createProcessesDatabase({ season: { days: 42 } });
    ({ db, idTokens, close } = conn);
    const rows = await db.execute(sql`
      select id from slots where kind = 'session' and start_at > now() + interval '1 day' order by start_at limit 181`);
    sessionIds = rows.rows.map((r) => r.id as string);
    api = await startApiProcesses(3, conn.env);
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await close?.();
  });

  const attempt = (i: number, headers: { authorization: string }, slotId: string) =>
    fetch(`${api.urls[i % api.urls.length]}/api/v1/bookings/reservation`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ slotId }),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as { code?: string } }));

  it('200 customers race for one session: exactly one wins, the rest get 409 SLOT_UNAVAILABLE', async () => {
    const racers = await createCustomers(db, idTokens, 200);
    const slotId = sessionIds[100]!;
    const results = await Promise.all(racers.map((c, i) => attempt(i, c.headers, slotId)));
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    const losers = results.filter((r) => r.status !== 201);
    expect(losers).toHaveLength(199);
    expect(losers.every((r) => r.status === 409 && r.body.code === 'SLOT_UNAVAILABLE')).toBe(true);
    const holds = await db
      .select()
      .from(reservations)
      .where(and(eq(reservations.slotId, slotId), eq(reservations.status, 'active')));
    expect(holds).toHaveLength(1);
  }, 60_000);

  it('1,000 attempts on 100 sessions give exactly 100 holds', async () => {
    const racers = await createCustomers(db, idTokens, 1000);
    const targets = sessionIds.slice(0, 100);
    const results = await Promise.all(racers.map((c, i) => attempt(i, c.headers, targets[(i * 37) % 100]!)));
    const statuses = results.reduce<Record<number, number>>(
      (acc, r) => ({ ...acc, [r.status]: (acc[r.status] ?? 0) + 1 }),
      {},
    );
    expect(statuses).toEqual({ 201: 100, 409: 900 });
    const held = await db
      .select({ id: slots.id, holder: slots.holdReservationId })
      .from(slots)
      .where(and(isNotNull(slots.holdReservationId), sql`${slots.id} = any(${sql.param(targets)}::uuid[])`));
    expect(held).toHaveLength(100);
    const active = await db.execute(sql`
      select slot_id, count(*)::int as n from reservations where status = 'active' and slot_id =
      any(${sql.param(targets)}::uuid[]) group by slot_id`);
    expect(active.rows).toHaveLength(100);
    expect(active.rows.every((r) => r.n === 1)).toBe(true);
  }, 120_000);

  it(
    '40 families each ask two processes for two sessions at once: exactly one hold each, the other ' + 'HOLD_LIMIT',
    async () => {
      const families = await createCustomers(db, idTokens, 40);
      const targets = sessionIds.slice(101);
      const results = await Promise.all(
        families.map((f, i) =>
          Promise.all([attempt(0, f.headers, targets[2 * i]!), attempt(1, f.headers, targets[2 * i + 1]!)]),
        ),
      );
      for (const pair of results) {
        expect(pair.map((r) => r.status).sort()).toEqual([201, 409]);
        expect(pair.find((r) => r.status === 409)!.body.code).toBe('HOLD_LIMIT');
      }
      const active = await db.execute(sql`
      select user_id, count(*)::int as n from reservations
      where status = 'active' and user_id = any(${sql.param(families.map((f) => f.id))}::uuid[]) group by user_id`);
      expect(active.rows).toHaveLength(40);
      expect(active.rows.every((r) => r.n === 1)).toBe(true);
      // The losers' sessions were never claimed: 40 of the 80 are held, each by a winner's hold.
      const held = await db.execute(sql`
      select count(*)::int as n from slots s join reservations r on r.id = s.hold_reservation_id
      where s.id = any(${sql.param(targets)}::uuid[]) and r.status = 'active'`);
      expect(held.rows[0]!.n).toBe(40);
    },
    120_000,
  );

  it(
    "every hold's audit entry is hash-chained by the processes' sealing job within seconds, one sealer at a time " +
      '(decision 0078)',
    async () => {
      const written = (await db.execute(sql`select count(*)::int as n from audit_entries`)).rows[0]!.n as number;
      expect(written).toBeGreaterThanOrEqual(141);
      let report = await verifyAuditChain(db);
      for (
        const until = Date.now() + 20_000;
        report.unsealed.count > 0 && Date.now() < until;
        report = await verifyAuditChain(db)
      )
        await new Promise((r) => setTimeout(r, 250));
      expect(report).toMatchObject({ broken: null, links: written, unsealed: { count: 0 } });
    },
    60_000,
  );
});
