import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locations, packages, slots } from '../../src/db/schema/catalogue';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason, SeasonFileError } from '../../src/modules/catalogue/season.service';
import { createCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';

const NOW = new Date('2026-12-01T00:00:00Z');

describe('loading a season file', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({}, new ManualClock(NOW));
  });
  afterAll(async () => t.close());

  const count = async () => Number((await t.db.execute(sql`select count(*) from slots`)).rows[0]!.count);

  it('is safe to run again: no duplicates, same ids', async () => {
    const first = await loadSeason(t.db, demoSeason(NOW), NOW);
    const slotsAfterFirst = await count();
    const ids = (await t.db.select({ id: locations.id }).from(locations)).map((r) => r.id).sort();
    const second = await loadSeason(t.db, demoSeason(NOW), NOW);
    expect(await count()).toBe(slotsAfterFirst);
    expect((await t.db.select({ id: locations.id }).from(locations)).map((r) => r.id).sort()).toEqual(ids);
    expect(second.locations.map((l) => l.slots.removed)).toEqual([0, 0, 0]);
    expect(first.locations[0]!.slots.planned).toBe(second.locations[0]!.slots.planned);
  });

  it('keeps held sessions when a new file drops them, and removes the rest', async () => {
    const family = await createCustomer(t.db, t.app.idTokens);
    const [target] = await t.db
      .select()
      .from(slots)
      .where(and(eq(slots.kind, 'session'), sql`${slots.startAt} > '2026-12-10T00:00:00Z'`))
      .orderBy(slots.startAt)
      .limit(1);
    const held = await t.app.inject({
      method: 'POST',
      url: '/api/v1/bookings/reservation',
      headers: family.headers,
      payload: { slotId: target!.id },
    });
    expect(held.statusCode).toBe(201);

    const season = demoSeason(NOW);
    season.locations = season.locations.map((l) => ({ ...l, seasonEnd: '2026-12-05' }));
    const report = await loadSeason(t.db, season, NOW);
    expect(report.locations[0]!.slots.removed).toBeGreaterThan(0);
    const [kept] = await t.db.select().from(slots).where(eq(slots.id, target!.id));
    expect(kept).toMatchObject({ blocked: true, holdReservationId: held.json().id });
    const later = await t.db.execute(sql`select count(*)::int as n from slots where start_at > '2026-12-06T00:00:00Z'`);
    expect(later.rows[0]!.n).toBe(1);
  });

  it('retires packages that left the file instead of deleting them', async () => {
    const season = demoSeason(NOW);
    season.packages = season.packages.slice(1);
    await loadSeason(t.db, season, NOW);
    const [retired] = await t.db.select().from(packages).where(eq(packages.slug, 'digital-memories'));
    expect(retired!.active).toBe(false);
  });

  it('refuses an invalid file and changes nothing', async () => {
    const before = await count();
    const season = demoSeason(NOW) as unknown as { locations: { timezone: string }[] };
    season.locations[0]!.timezone = 'Australia/Atlantis';
    await expect(loadSeason(t.db, season, NOW)).rejects.toBeInstanceOf(SeasonFileError);
    expect(await count()).toBe(before);
  });
});
