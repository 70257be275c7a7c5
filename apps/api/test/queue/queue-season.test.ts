import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason, parseSeason } from '../../src/modules/catalogue/season.service';
import { createTestApp } from '../helpers/test-app';

const NOW = new Date('2026-12-01T00:00:00Z'); // 11:00 AEDT in Sydney

function season(queue?: { opensMinutesBefore: number }) {
  const s = demoSeason(NOW);
  s.locations[0] = { ...s.locations[0]!, salesOpenAt: '2026-12-01T11:30', ...(queue ? { queue } : {}) };
  return s;
}

describe('season file: locations[].queue', () => {
  it('defaults to a line 30 minutes before a salesOpenAt, 0 = none, and no line without a salesOpenAt', async () => {
    const t = await createTestApp();
    try {
      await loadSeason(t.db, season(), NOW);
      const stored = async () =>
        (
          await t.db.execute(sql`select slug, queue_opens_minutes_before as m from locations order by sort_order`)
        ).rows.map((r) => r.m);
      expect(await stored()).toEqual([30, 0, 0]);
      await loadSeason(t.db, season({ opensMinutesBefore: 0 }), NOW);
      expect(await stored()).toEqual([0, 0, 0]);
      expect(() => parseSeason(season({ opensMinutesBefore: -1 }))).toThrow();
    } finally {
      await t.close();
    }
  });
});
