import { localTimeOf } from '@kringle/contracts/dates';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';

// Tue 1 Dec 2026, 11:00 in Sydney (AEDT), 10:00 in Brisbane, 08:00 in Perth.
const NOW = new Date('2026-12-01T00:00:00Z');

describe('catalogue and availability', () => {
  let t: TestApp;
  let family: TestCustomer;
  let sydney: { id: string; slotTypes: { id: string; name: string }[] };
  const get = (url: string, who: TestCustomer = family) => t.app.inject({ url, headers: who.headers });

  beforeAll(async () => {
    t = await createTestApp({}, new ManualClock(NOW));
    await loadSeason(t.db, demoSeason(NOW), NOW);
    family = await createCustomer(t.db, t.app.idTokens);
    const res = await get('/api/v1/common/locations');
    if (res.statusCode !== 200) throw new Error(res.body);
    sydney = res.json().items.find((l: { timezone: string }) => l.timezone === 'Australia/Sydney');
  });
  afterAll(async () => t.close());

  const typeId = (name: string) => sydney.slotTypes.find((s) => s.name === name)!.id;

  it('lists three locations in three zones with their session types', async () => {
    const res = await get('/api/v1/common/locations');
    expect(res.statusCode).toBe(200);
    const items = res.json().items;
    expect(items.map((l: { timezone: string }) => l.timezone)).toEqual([
      'Australia/Sydney',
      'Australia/Brisbane',
      'Australia/Perth',
    ]);
    expect(items[0].slotTypes.map((s: { name: string }) => s.name)).toEqual([
      'Santa photos',
      'Sensory-friendly Santa',
      'Pet night',
    ]);
    expect(items[0]).toMatchObject({ seasonStart: '2026-12-01', seasonEnd: '2026-12-24', address: expect.any(String) });
  });

  it('refuses guests, unverified and staff', async () => {
    expect((await t.app.inject('/api/v1/common/locations')).statusCode).toBe(401);
    const unverified = await createCustomer(t.db, t.app.idTokens, { verified: false });
    expect((await get('/api/v1/common/locations', unverified)).json().code).toBe('EMAIL_NOT_VERIFIED');
    const staff = await createCustomer(t.db, t.app.idTokens, { staff: true });
    expect((await get('/api/v1/common/locations', staff)).json().code).toBe('STAFF_NOT_ALLOWED');
  });

  it('lists packages for a session type and add-ons, priced in AUD cents', async () => {
    const all = (await get('/api/v1/product/packages')).json().items;
    expect(all).toHaveLength(5);
    const standard = (
      await get(`/api/v1/product/packages?locationId=${sydney.id}&slotTypeId=${typeId('Santa photos')}`)
    ).json().items;
    expect(standard.map((p: { name: string }) => p.name)).not.toContain('Pawsome Pet Pack');
    expect(standard[0]).toMatchObject({
      type: 'package',
      currency: 'AUD',
      priceCents: 2995,
      includes: expect.any(Array),
      maxQuantity: 3,
    });
    const pets = (await get(`/api/v1/product/packages?slotTypeId=${typeId('Pet night')}`)).json().items;
    expect(pets.map((p: { name: string }) => p.name)).toContain('Pawsome Pet Pack');
    const addOns = (await get(`/api/v1/product/addons?locationId=${sydney.id}`)).json().items;
    expect(addOns[0]).toMatchObject({ type: 'add_on', currency: 'AUD', maxQuantity: 10 });
    expect((await get('/api/v1/product/packages?slotTypeId=not-a-uuid')).json().code).toBe('VALIDATION_FAILED');
    expect((await get('/api/v1/product/packages?colour=red')).json().code).toBe('VALIDATION_FAILED');
    expect((await get('/api/v1/product/addons?locationId=7c9e6679-7425-40de-944b-e07fc1f90ae7')).statusCode).toBe(404);
  });

  it('counts bookable sessions per local day, zero on Christmas Day', async () => {
    const res = await get(
      `/api/v1/booking-slot/${sydney.id}/available-dates?slotTypeId=` +
        `${typeId('Santa photos')}&from=2026-12-01&to=2026-12-31`,
    );
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.timezone).toBe('Australia/Sydney');
    expect(body.items).toHaveLength(31);
    const day = (d: string) => body.items.find((i: { date: string }) => i.date === d).available;
    expect(day('2026-12-25')).toBe(0);
    expect(day('2026-12-05')).toBe(39);
    // Today: sessions before 12:00 (11:00 now + 60 min lead time) are gone.
    expect(day('2026-12-01')).toBeLessThan(39);
    const tooLong = await get(
      `/api/v1/booking-slot/${sydney.id}/available-dates?slotTypeId=` +
        `${typeId('Santa photos')}&from=2026-12-01&to=2027-06-01`,
    );
    expect(tooLong.json().code).toBe('VALIDATION_FAILED');
  });

  it('tells a fully booked day (sessions, none available) from a closed one (no sessions)', async () => {
    const days = async (to: string) => {
      const items = (
        await get(
          `/api/v1/booking-slot/${sydney.id}/available-dates?slotTypeId=` +
            `${typeId('Santa photos')}&from=2026-12-05&to=${to}`,
        )
      ).json().items;
      return Object.fromEntries(
        items.map((i: { date: string; available: number; sessions: number }) => [
          i.date,
          { available: i.available, sessions: i.sessions },
        ]),
      );
    };
    expect((await days('2026-12-06'))['2026-12-05']).toEqual({ available: 39, sessions: 39 });
    // Every session of the 6th held by someone: fully booked. (Another `to`: not the cached answer.)
    await t.db.execute(sql`update slots set hold_expires_at = '2030-01-01T00:00:00Z'
      where location_id = ${sydney.id}::uuid and start_at >= '2026-12-05T13:00:00Z' and start_at <
      '2026-12-06T13:00:00Z'`);
    const after = await days('2026-12-25');
    expect(after['2026-12-06']).toEqual({ available: 0, sessions: 39 });
    expect(after['2026-12-25']).toEqual({ available: 0, sessions: 0 });
  });

  it("lists a day's sessions and breaks in the location's zone with derived statuses", async () => {
    const res = await get(
      `/api/v1/booking-slot/${sydney.id}/available-slots?date=2026-12-01&slotTypeId=${typeId('Santa photos')}`,
    );
    const { timezone, items } = res.json();
    expect(timezone).toBe('Australia/Sydney');
    const at = (hhmm: string) =>
      items.find((s: { startAt: string }) => localTimeOf(new Date(s.startAt), timezone) === hhmm);
    expect(at('10:00')).toMatchObject({ kind: 'session', status: 'unavailable' }); // past
    expect(at('11:50')).toMatchObject({ kind: 'session', status: 'unavailable' }); // inside the lead time
    expect(at('12:00')).toMatchObject({ kind: 'break', status: 'unavailable' });
    expect(at('12:40')).toMatchObject({ kind: 'session', status: 'available' });
    const breaks = await get(`/api/v1/booking-slot/${sydney.id}/available-slots?date=2026-12-01&filter=break`);
    expect(breaks.json().items.every((s: { kind: string }) => s.kind === 'break')).toBe(true);
    const one = await get(`/api/v1/booking-slot/${sydney.id}/slots/${at('12:40').id}`);
    expect(one.json()).toEqual({ ...at('12:40'), salesOpenAt: null });
    expect((await get(`/api/v1/booking-slot/${sydney.id}/available-slots?date=2026-13-01`)).json().code).toBe(
      'VALIDATION_FAILED',
    );
    expect(
      (await get(`/api/v1/booking-slot/${sydney.id}/available-slots?date=2026-12-01&filter=nap`)).json().code,
    ).toBe('VALIDATION_FAILED');
  });

  it('answers 404 for a slot of another location', async () => {
    const perth = (await get('/api/v1/common/locations')).json().items[2];
    const slots = (await get(`/api/v1/booking-slot/${sydney.id}/available-slots?date=2026-12-02`)).json().items;
    expect((await get(`/api/v1/booking-slot/${perth.id}/slots/${slots[0].id}`)).statusCode).toBe(404);
  });

  it('answers 404 for an unknown location, and for a session type of another location', async () => {
    const perth = (await get('/api/v1/common/locations')).json().items[2];
    const perthType = perth.slotTypes[0].id;
    for (const path of ['available-slots?date=2026-12-02&slotTypeId=', 'available-dates?slotTypeId=']) {
      const otherType = await get(`/api/v1/booking-slot/${sydney.id}/${path}${perthType}`);
      expect(otherType.statusCode).toBe(404);
      expect(otherType.json()).toMatchObject({
        code: 'NOT_FOUND',
        error: expect.stringContaining('That session type'),
      });
      const nowhere = await get(`/api/v1/booking-slot/7c9e6679-7425-40de-944b-e07fc1f90ae7/${path}${perthType}`);
      expect(nowhere.statusCode).toBe(404);
      expect(nowhere.json().error).toContain('That location');
      expect((await get(`/api/v1/booking-slot/${perth.id}/${path}${perthType}`)).statusCode).toBe(200);
    }
  });
});

describe('a daylight-saving change day', () => {
  it('keeps sessions at local opening time when Sydney leaves daylight saving (4 Apr 2027)', async () => {
    const now = new Date('2027-04-01T00:00:00Z');
    const t = await createTestApp({}, new ManualClock(now));
    try {
      const season = demoSeason(now);
      season.locations = season.locations
        .slice(0, 1)
        .map((l) => ({ ...l, seasonStart: '2027-04-03', seasonEnd: '2027-04-05', closedDates: [] }));
      await loadSeason(t.db, season, now);
      const family = await createCustomer(t.db, t.app.idTokens);
      const loc = (await t.app.inject({ url: '/api/v1/common/locations', headers: family.headers })).json().items[0];
      const first = async (date: string) =>
        (
          await t.app.inject({
            url: `/api/v1/booking-slot/${loc.id}/available-slots?date=${date}&slotTypeId=${loc.slotTypes[0].id}`,
            headers: family.headers,
          })
        ).json().items[0];
      expect((await first('2027-04-03')).startAt).toBe('2027-04-02T23:00:00.000Z'); // 10:00 AEDT
      expect((await first('2027-04-04')).startAt).toBe('2027-04-04T00:00:00.000Z'); // 10:00 AEST
      const days = (
        await t.app.inject({
          url: `/api/v1/booking-slot/${loc.id}/available-dates?slotTypeId=${loc.slotTypes[0].id}`,
          headers: family.headers,
        })
      ).json();
      expect(days.items.map((d: { date: string }) => d.date)).toEqual(['2027-04-03', '2027-04-04', '2027-04-05']);
      expect(days.items[0].available).toBe(days.items[1].available);
    } finally {
      await t.close();
    }
  });
});
