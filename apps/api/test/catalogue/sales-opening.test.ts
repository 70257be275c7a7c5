import { localTimeOf } from '@kringle/contracts/dates';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { locations } from '../../src/db/schema/catalogue';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason, parseSeason, SeasonFileError } from '../../src/modules/catalogue/season.service';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';

const NOW = new Date('2026-12-01T00:00:00Z'); // 11:00 AEDT in Sydney
/** 11:01 AEDT on 1 December: a minute after NOW (a season file names minutes). */
const OPENS_LOCAL = '2026-12-01T11:01';
const OPENS_AT = new Date('2026-12-01T00:01:00Z');

function seasonOpeningAt(local: string | undefined) {
  const season = demoSeason(NOW);
  // No waiting room (decision 0053): the instant alone decides, as before the fair start.
  season.locations[0] = { ...season.locations[0]!, salesOpenAt: local, queue: { opensMinutesBefore: 0 } };
  return season;
}

describe('season file: salesOpenAt', () => {
  const problems = (local: string, timezone = 'Australia/Sydney') => {
    const season = seasonOpeningAt(local);
    season.locations[0] = { ...season.locations[0]!, timezone };
    try {
      parseSeason(season);
      return [];
    } catch (err) {
      expect(err).toBeInstanceOf(SeasonFileError);
      return (err as SeasonFileError).problems;
    }
  };

  it('accepts a local date-time and refuses other shapes', () => {
    expect(problems('2026-11-01T09:00')).toEqual([]);
    for (const bad of [
      '2026-11-01 09:00',
      '2026-11-01T09:00:00',
      '2026-11-01T9:00',
      '2026-13-01T09:00',
      '2026-11-01T24:00',
      '2026-11-01T09:00Z',
    ]) {
      expect(problems(bad)).toEqual(['locations.0.salesOpenAt: a local date and time like 2026-11-01T09:00']);
    }
  });

  it('refuses a local time that the zone skips for daylight saving', () => {
    // Sydney's clocks go from 02:00 to 03:00 on 4 October 2026.
    expect(problems('2026-10-04T02:30')).toEqual([
      'locations.0.salesOpenAt: 2026-10-04T02:30 does not exist in Australia/Sydney (clocks skip it for daylight ' +
        'saving)',
    ]);
    expect(problems('2026-10-04T03:00')).toEqual([]);
    // Brisbane keeps no daylight saving: the same wall-clock time exists there.
    expect(problems('2026-10-04T02:30', 'Australia/Brisbane')).toEqual([]);
  });
});

describe('bookings open at a set time', () => {
  let t: TestApp;
  let clock: ManualClock;
  let family: TestCustomer;
  let locationId: string;
  let slotsUrl: string;
  let datesUrl: string;
  let sessionId: string;

  const read = (url: string) => t.app.inject({ url, headers: family.headers });
  const hold = (slotId: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/bookings/reservation', headers: family.headers, payload: { slotId } });

  beforeAll(async () => {
    clock = new ManualClock(NOW);
    t = await createTestApp({}, clock);
    await loadSeason(t.db, seasonOpeningAt(OPENS_LOCAL), NOW);
    family = await createCustomer(t.db, t.app.idTokens);
    const loc = (await read('/api/v1/common/locations')).json().items[0];
    locationId = loc.id;
    slotsUrl = `/api/v1/booking-slot/${loc.id}/available-slots?date=2026-12-03&slotTypeId=${loc.slotTypes[0].id}`;
    datesUrl =
      `/api/v1/booking-slot/${loc.id}/available-dates?slotTypeId=` +
      `${loc.slotTypes[0].id}&from=2026-12-03&to=2026-12-03`;
    const items: { id: string; kind: string; startAt: string }[] = (await read(slotsUrl)).json().items;
    sessionId = items.find(
      (s) => s.kind === 'session' && localTimeOf(new Date(s.startAt), 'Australia/Sydney') === '11:00',
    )!.id;
  });
  afterAll(async () => t.close());

  it('stores the local time as an instant and lists it with the location', async () => {
    const [row] = await t.db
      .select({ salesOpenAt: locations.salesOpenAt })
      .from(locations)
      .where(eq(locations.id, locationId));
    expect(row!.salesOpenAt).toEqual(OPENS_AT);
    const items = (await read('/api/v1/common/locations')).json().items;
    expect(items[0].salesOpenAt).toBe(OPENS_AT.toISOString());
    // The other locations in the file set no opening: on sale already.
    expect(items.slice(1).map((l: { salesOpenAt: unknown }) => l.salesOpenAt)).toEqual([null, null]);
  });

  it(
    'before the opening: sessions are listed unavailable, no day has a bookable session, and a hold is ' + 'refused',
    async () => {
      clock.set(new Date(OPENS_AT.getTime() - 1));
      const slots = (await read(slotsUrl)).json();
      expect(slots.salesOpenAt).toBe(OPENS_AT.toISOString());
      const sessions = slots.items.filter((s: { kind: string }) => s.kind === 'session');
      expect(sessions.length).toBeGreaterThan(10);
      expect(new Set(sessions.map((s: { status: string }) => s.status))).toEqual(new Set(['unavailable']));
      // Every session is still to come (sessions), none is bookable yet (available): salesOpenAt says why.
      expect((await read(datesUrl)).json()).toEqual({
        timezone: 'Australia/Sydney',
        salesOpenAt: OPENS_AT.toISOString(),
        items: [{ date: '2026-12-03', available: 0, sessions: sessions.length }],
      });
      const one = (await read(`/api/v1/booking-slot/${locationId}/slots/${sessionId}`)).json();
      expect(one).toMatchObject({ id: sessionId, status: 'unavailable', salesOpenAt: OPENS_AT.toISOString() });

      const refused = await hold(sessionId);
      expect(refused.statusCode).toBe(409);
      expect(refused.json()).toMatchObject({
        code: 'SALES_NOT_OPEN',
        error: 'Bookings for Kringle Sydney, Pitt Street open Tue 1 Dec, 11:01 am AEDT.',
      });
      // Asked again, it goes to the database again (a refusal before the opening is not remembered as "taken").
      expect((await hold(sessionId)).json().code).toBe('SALES_NOT_OPEN');
    },
  );

  it('at the instant: open on the same process, with no cached answer from a millisecond before', async () => {
    clock.set(OPENS_AT);
    const slots = (await read(slotsUrl)).json();
    const status = slots.items.find((s: { id: string }) => s.id === sessionId).status;
    expect(status).toBe('available');
    expect(slots.salesOpenAt).toBe(OPENS_AT.toISOString());
    expect((await read(datesUrl)).json().items[0].available).toBeGreaterThan(10);
    const held = await hold(sessionId);
    expect(held.statusCode).toBe(201);
    expect(held.json()).toMatchObject({ slotId: sessionId, status: 'active' });
  });

  it('a reschedule hold into a location not open yet is refused the same way', async () => {
    // Reloading with a later opening takes the location off sale again; the held session stays held.
    await loadSeason(t.db, seasonOpeningAt('2026-12-01T12:00'), NOW);
    const other = (await read(slotsUrl))
      .json()
      .items.find((s: { kind: string; id: string }) => s.kind === 'session' && s.id !== sessionId);
    const refused = await t.app.inject({
      method: 'POST',
      url: '/api/v1/bookings/reservation',
      headers: family.headers,
      payload: { slotId: other.id, bookingId: '00000000-0000-4000-8000-000000000000' },
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      code: 'SALES_NOT_OPEN',
      error: 'Bookings for Kringle Sydney, Pitt Street open Tue 1 Dec, 12:00 pm AEDT.',
    });
    // And a new hold by a family that already holds one (the general path) too.
    expect((await hold(other.id)).json().code).toBe('SALES_NOT_OPEN');
  });

  it('a season file without salesOpenAt puts the location on sale at once', async () => {
    await loadSeason(t.db, seasonOpeningAt(undefined), NOW);
    expect((await read('/api/v1/common/locations')).json().items[0].salesOpenAt).toBeNull();
  });
});
