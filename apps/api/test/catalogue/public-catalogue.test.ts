import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { createTestApp, type TestApp } from '../helpers/test-app';

// Tue 1 Dec 2026, 11:00 in Sydney.
const NOW = new Date('2026-12-01T00:00:00Z');

type Catalogue = {
  locations: {
    name: string;
    timezone: string;
    seasonStart: string;
    seasonEnd: string;
    salesOpenAt: string | null;
    slotTypes: { name: string; durationMinutes: number; fromPriceCents: number }[];
  }[];
};

/** Issue 53 item 3: what a visitor can book, before any account (API.md "The family's journey, round three"). */
describe('GET /common/catalogue', () => {
  let t: TestApp;
  let clock: ManualClock;
  const get = (headers: Record<string, string> = {}) => t.app.inject({ url: '/api/v1/common/catalogue', headers });
  const prices = (body: Catalogue, timezone = 'Australia/Sydney') =>
    Object.fromEntries(
      body.locations.find((l) => l.timezone === timezone)!.slotTypes.map((s) => [s.name, s.fromPriceCents]),
    );

  beforeAll(async () => {
    clock = new ManualClock(NOW);
    // The app check enforced, as in production: the visitor's page has no token yet.
    t = await createTestApp({ APP_CHECK_MODE: 'enforce' }, clock);
    await loadSeason(t.db, demoSeason(NOW), NOW);
  });
  afterAll(async () => t.close());

  it(
    'answers a visitor with no token and no app check: locations, dates, session types and all-in from ' + 'prices',
    async () => {
      const res = await get();
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json() as Catalogue;
      expect(body.locations.map((l) => l.timezone)).toEqual([
        'Australia/Sydney',
        'Australia/Brisbane',
        'Australia/Perth',
      ]);
      expect(body.locations[0]).toMatchObject({
        seasonStart: '2026-12-01',
        seasonEnd: '2026-12-24',
        salesOpenAt: null,
        suburb: expect.any(String),
        state: 'NSW',
      });
      expect(body.locations[0]!.slotTypes.map((s) => s.name)).toEqual([
        'Santa photos',
        'Sensory-friendly Santa',
        'Pet night',
      ]);
      // One package is all a booking needs; the cheapest offered for every type is Digital Memories ($29.95, GST in).
      expect(prices(body)).toEqual({ 'Santa photos': 2995, 'Sensory-friendly Santa': 2995, 'Pet night': 2995 });
      expect(body.locations[0]!.slotTypes[0]!.durationMinutes).toBeGreaterThan(0);
      expect(res.headers['cache-control']).toBe('public, max-age=60');
      expect(res.headers.etag).toMatch(/^"catalogue-[\w-]+"$/);
      // Nothing about a family or a staff member: the same for everyone.
      expect(res.body).not.toMatch(/email|address|bookingId/i);
    },
  );

  it('answers 304 to the ETag it gave, and 200 to another', async () => {
    const first = await get();
    const again = await get({ 'if-none-match': first.headers.etag as string });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(first.headers.etag);
    expect((await get({ 'if-none-match': `W/${first.headers.etag as string}, "other"` })).statusCode).toBe(304);
    expect((await get({ 'if-none-match': '"catalogue-old"' })).statusCode).toBe(200);
  });

  it(
    'is built once: a change outside the season changes nothing; a new season shows within seconds, with its ' +
      'prices',
    async () => {
      const before = await get();
      // Not a season change: the built answer stands (no query per visitor for the catalogue itself).
      await t.db.execute(sql`update packages set price_cents = 100 where slug = 'digital-memories'`);
      clock.set(new Date(NOW.getTime() + 10_000));
      expect((await get()).headers.etag).toBe(before.headers.etag);
      expect(prices((await get()).json())['Santa photos']).toBe(2995);

      // A new season version: Digital Memories for standard sessions only, at $31.95.
      const season = demoSeason(NOW);
      const digital = season.packages.find((p) => p.slug === 'digital-memories')!;
      Object.assign(digital, { priceCents: 3195, slotTypes: ['standard'] });
      await loadSeason(t.db, season, clock.now());
      clock.set(new Date(NOW.getTime() + 20_000));
      const after = await get();
      expect(after.headers.etag).not.toBe(before.headers.etag);
      // Sensory: Classic Print is the cheapest left; pet night: the Pawsome Pet Pack.
      expect(prices(after.json())).toEqual({ 'Santa photos': 3195, 'Sensory-friendly Santa': 3995, 'Pet night': 3495 });
      expect((await get({ 'if-none-match': before.headers.etag as string })).statusCode).toBe(200);
    },
  );

  it('drops a session type once its last session has started, without a season change', async () => {
    const lastPetNight = (
      await t.db.execute(sql`select max(s.start_at) as at from slots s join slot_types st on st.id = s.slot_type_id join
        locations l on l.id = st.location_id
        where st.slug = 'pet-night' and l.timezone = 'Australia/Sydney' and s.kind = 'session'`)
    ).rows[0]!.at as string;
    clock.set(new Date(Date.parse(lastPetNight) + 1000));
    const body = (await get()).json() as Catalogue;
    expect(Object.keys(prices(body))).not.toContain('Pet night');
    clock.set(new Date('2027-01-01T00:00:00Z'));
    expect(((await get()).json() as Catalogue).locations.every((l) => l.slotTypes.length === 0)).toBe(true);
  });
});
