import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { createCustomers } from '../helpers/customers';
import { createTestApp } from '../helpers/test-app';

const NOW = new Date('2026-12-01T00:00:00Z'); // 11:00 AEDT in Sydney

/**
 * Issue 53 item 17: every manager page asked GET /staff/queue/{id} and logged a 404 for each
 * location without a waiting room. The staff catalogue now says which locations have one, and
 * when it opens, so the app asks only there.
 */
describe('GET /staff/catalogue: queueOpensAt', () => {
  it("is when the location's line opens, and null for a location without one", async () => {
    const t = await createTestApp({}, new ManualClock(NOW));
    try {
      const s = demoSeason(NOW);
      // Sydney opens its sales at 11:30 AEDT with a line 45 minutes before; Brisbane at a set time with no line; Perth
      // on sale already.
      s.locations[0] = { ...s.locations[0]!, salesOpenAt: '2026-12-01T11:30', queue: { opensMinutesBefore: 45 } };
      s.locations[1] = { ...s.locations[1]!, salesOpenAt: '2026-12-01T11:30', queue: { opensMinutesBefore: 0 } };
      await loadSeason(t.db, s, NOW);
      const [staff] = await createCustomers(t.db, t.app.idTokens, 1, { staff: true });
      await t.db.execute(
        sql`update users set staff_role = 'manager', mfa_enrolled_at = now() where id = ${staff!.id}::uuid`,
      );

      const res = await t.app.inject({ url: '/api/v1/staff/catalogue', headers: staff!.headers });
      expect(res.statusCode).toBe(200);
      const locations = (res.json() as { locations: { id: string; name: string; queueOpensAt: string | null }[] })
        .locations;
      expect(locations.map((l) => l.queueOpensAt)).toEqual(['2026-11-30T23:45:00.000Z', null, null]);

      // What the app relies on: where it says null, the line's route has nothing to tell (the 404 it no longer asks
      // for).
      const none = await t.app.inject({ url: `/api/v1/staff/queue/${locations[2]!.id}`, headers: staff!.headers });
      expect(none.statusCode).toBe(404);
      const line = await t.app.inject({ url: `/api/v1/staff/queue/${locations[0]!.id}`, headers: staff!.headers });
      expect(line.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });
});
