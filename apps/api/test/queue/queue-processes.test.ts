import { createHash } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawOrder } from '../../src/modules/queue/queue-draw';
import { startSeasonOnProcesses, type SeasonOnProcesses } from '../helpers/season-on-processes';

/**
 * The waiting room on three real API processes with their jobs on (the production entry point):
 * families join through any of them, twice, and get one place each; at the opening instant the
 * draw happens exactly once, within a second, and the order is the seed's.
 */
describe('the fair start across API processes', () => {
  let world: SeasonOnProcesses;
  let opensAt: Date;

  beforeAll(async () => {
    world = await startSeasonOnProcesses(3, 7);
    // Seconds ahead, which a season file (minutes) cannot say: set on the row as a load would store it.
    opensAt = new Date(Date.now() + 8000);
    await world.db.execute(
      sql`update locations set sales_open_at =
${opensAt.toISOString()}::timestamptz, queue_opens_minutes_before = 30 where id = ${world.session.locationId}::uuid`,
    );
  }, 120_000);
  afterAll(async () => {
    await world?.close();
  });

  const call = (
    i: number,
    path: string,
    who: { headers: Record<string, string> },
    init: { method?: string; body?: unknown } = {},
  ) =>
    fetch(`${world.api.urls[i % 3]}/api/v1${path}`, {
      method: init.method ?? 'GET',
      headers: { ...who.headers, ...(init.body ? { 'content-type': 'application/json' } : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });

  it(
    'one place per account whichever process is asked, one draw within 1 s of the instant, admissions once ' + 'each',
    async () => {
      const families = world.families.slice(0, 6);
      const queuePath = `/queue/${world.session.locationId}`;
      const joins = await Promise.all(
        families.flatMap((f, i) => [
          call(i, queuePath, f, { method: 'POST' }),
          call(i + 1, queuePath, f, { method: 'POST' }),
        ]),
      );
      expect(joins.map((r) => r.status)).toEqual(Array(12).fill(200));
      const count = await world.db.execute(
        sql`select count(*)::int as n from queue_tickets where location_id = ${world.session.locationId}::uuid`,
      );
      expect(count.rows[0]!.n).toBe(6);

      await new Promise((resolve) => setTimeout(resolve, Math.max(0, opensAt.getTime() - Date.now()) + 2000));
      const line = (
        await world.db.execute(
          sql`select drawn_at, version from queue_lines where location_id = ${world.session.locationId}::uuid`,
        )
      ).rows[0]!;
      const lagMs = new Date(line.drawn_at as string).getTime() - opensAt.getTime();
      expect(lagMs).toBeGreaterThanOrEqual(0);
      expect(lagMs).toBeLessThanOrEqual(1000);

      const fairness = (await (await fetch(`${world.api.urls[2]}/api/v1${queuePath}/fairness`)).json()) as {
        seed: string;
        seedHash: string;
        entrants: string[];
      };
      expect(createHash('sha256').update(fairness.seed).digest('hex')).toBe(fairness.seedHash);
      expect(fairness.entrants).toEqual(drawOrder(fairness.seed, [...fairness.entrants].sort()));
      const rows = (
        await world.db.execute(
          sql`select id, status, admitted_at from queue_tickets where location_id =
${world.session.locationId}::uuid order by line_key`,
        )
      ).rows;
      expect(rows.map((r) => r.id)).toEqual(fairness.entrants);
      // Plenty free: everyone is admitted, once.
      expect(rows.every((r) => r.status === 'admitted' && r.admitted_at !== null)).toBe(true);

      // The hold: refused to a family not in the line, allowed to an admitted one, on any process.
      const outsider = world.families[6]!;
      const refused = await call(0, '/bookings/reservation', outsider, {
        method: 'POST',
        body: { slotId: world.session.slotId },
      });
      expect(refused.status).toBe(409);
      expect(((await refused.json()) as { code: string }).code).toBe('QUEUE_NOT_ADMITTED');
      const held = await call(1, '/bookings/reservation', families[0]!, {
        method: 'POST',
        body: { slotId: world.session.slotId },
      });
      expect(held.status).toBe(201);
    },
    60_000,
  );
});
