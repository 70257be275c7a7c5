import { localTimeOf } from '@kringle/contracts/dates';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { reservations } from '../../src/db/schema/reservations';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { expireLapsedHolds } from '../../src/modules/sessions/system-holds.repository';
import { createCustomer, reauthenticate, type TestCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';

const NOW = new Date('2026-12-01T00:00:00Z'); // 11:00 in Sydney
const MINUTE = 60_000;

describe('reservations (timed holds)', () => {
  let t: TestApp;
  let clock: ManualClock;
  let locationId: string;
  let sessions: { id: string; startAt: string; kind: string; status: string }[];
  let holly: TestCustomer;
  let noel: TestCustomer;

  const post = (url: string, who: TestCustomer, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });
  const hold = (who: TestCustomer, slotId: string) => post('/api/v1/bookings/reservation', who, { slotId });
  const statusOf = async (slotId: string, who = noel) =>
    (await t.app.inject({ url: `/api/v1/booking-slot/${locationId}/slots/${slotId}`, headers: who.headers })).json()
      .status;

  beforeAll(async () => {
    clock = new ManualClock(NOW);
    t = await createTestApp({}, clock);
    await loadSeason(t.db, demoSeason(NOW), NOW);
    const family = await createCustomer(t.db, t.app.idTokens);
    const loc = (await t.app.inject({ url: '/api/v1/common/locations', headers: family.headers })).json().items[0];
    locationId = loc.id;
    sessions = (
      await t.app.inject({
        url: `/api/v1/booking-slot/${locationId}/available-slots?date=2026-12-03&slotTypeId=${loc.slotTypes[0].id}`,
        headers: family.headers,
      })
    ).json().items;
  });
  beforeEach(async () => {
    clock.set(NOW);
    holly = await createCustomer(t.db, t.app.idTokens);
    noel = await createCustomer(t.db, t.app.idTokens);
  });
  afterAll(async () => t.close());

  const session = (hhmm: string) =>
    sessions.find((s) => s.kind === 'session' && localTimeOf(new Date(s.startAt), 'Australia/Sydney') === hhmm)!;

  it('holds a session for 10 minutes and shows it as reserved to everyone', async () => {
    const res = await hold(holly, session('10:00').id);
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({
      slotId: session('10:00').id,
      locationId,
      status: 'active',
      refreshesLeft: 2,
      bookingId: null,
      expiresAt: new Date(NOW.getTime() + 10 * MINUTE).toISOString(),
    });
    expect(await statusOf(session('10:00').id)).toBe('reserved');
    const again = await hold(noel, session('10:00').id);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'SLOT_UNAVAILABLE', error: expect.stringContaining('just taken') });
  });

  it('frees an expired hold at once, before any sweep', async () => {
    const mine = (await hold(holly, session('10:10').id)).json();
    clock.advance(10 * MINUTE);
    expect(await statusOf(session('10:10').id)).toBe('available');
    const got = await t.app.inject({ url: `/api/v1/bookings/reservation/${mine.id}`, headers: holly.headers });
    expect(got.json().status).toBe('expired');
    expect((await hold(noel, session('10:10').id)).statusCode).toBe(201);
    expect((await post(`/api/v1/bookings/reservation/${mine.id}/refresh`, holly)).json().code).toBe('HOLD_EXPIRED');
  });

  it('keeps one live hold per customer: another is HOLD_LIMIT until the first is let go (decision 0059)', async () => {
    const first = (await hold(holly, session('10:20').id)).json();
    expect((await hold(holly, session('10:30').id)).json().code).toBe('HOLD_LIMIT');
    expect(await statusOf(session('10:20').id)).toBe('reserved');
    expect(await statusOf(session('10:30').id)).toBe('available');
    expect((await post(`/api/v1/bookings/reservation/${first.id}/cancel`, holly)).statusCode).toBe(200);
    expect((await hold(holly, session('10:30').id)).statusCode).toBe(201);
    // Re-picking the session you already hold works: the same hold (issue 37 item 1).
    expect((await hold(holly, session('10:30').id)).statusCode).toBe(200);
  });

  it(
    'follows the family: its own session again is the same hold (200), and GET lists its live holds (issue 37 item ' +
      '1)',
    async () => {
      const list = async (who: TestCustomer) =>
        (await t.app.inject({ url: '/api/v1/bookings/reservation', headers: who.headers })).json();
      expect(await list(holly)).toEqual({ items: [] });
      const first = (await hold(holly, session('14:00').id)).json();
      clock.advance(2 * MINUTE);
      const again = await hold(holly, session('14:00').id);
      expect(again.statusCode).toBe(200);
      expect(again.json()).toEqual(first);
      expect(await list(holly)).toEqual({ items: [first] });
      expect(await list(noel)).toEqual({ items: [] });
      clock.advance(8 * MINUTE);
      expect(await list(holly)).toEqual({ items: [] });
    },
  );

  it('changes nothing when the new session cannot be held', async () => {
    const mine = (await hold(holly, session('10:40').id)).json();
    await hold(noel, session('10:50').id);
    expect((await hold(holly, session('10:50').id)).statusCode).toBe(409);
    const still = await t.app.inject({ url: `/api/v1/bookings/reservation/${mine.id}`, headers: holly.headers });
    expect(still.json().status).toBe('active');
    expect(await statusOf(session('10:40').id)).toBe('reserved');
  });

  it('refreshes twice, then refuses with REFRESH_LIMIT', async () => {
    const mine = (await hold(holly, session('11:00').id)).json();
    clock.advance(8 * MINUTE);
    const r1 = await post(`/api/v1/bookings/reservation/${mine.id}/refresh`, holly);
    expect(r1.json()).toMatchObject({
      refreshesLeft: 1,
      expiresAt: new Date(clock.now().getTime() + 10 * MINUTE).toISOString(),
    });
    clock.advance(8 * MINUTE);
    holly = await reauthenticate(t.app.idTokens, holly);
    noel = await reauthenticate(t.app.idTokens, noel);
    expect((await post(`/api/v1/bookings/reservation/${mine.id}/refresh`, holly)).json().refreshesLeft).toBe(0);
    clock.advance(8 * MINUTE);
    expect(await statusOf(session('11:00').id)).toBe('reserved');
    const r3 = await post(`/api/v1/bookings/reservation/${mine.id}/refresh`, holly);
    expect(r3.statusCode).toBe(409);
    expect(r3.json().code).toBe('REFRESH_LIMIT');
  });

  it('cancels a hold, frees the session at once, and cancelling twice is harmless', async () => {
    const mine = (await hold(holly, session('11:10').id)).json();
    const res = await post(`/api/v1/bookings/reservation/${mine.id}/cancel`, holly);
    expect(res.json().status).toBe('cancelled');
    expect(await statusOf(session('11:10').id)).toBe('available');
    expect((await post(`/api/v1/bookings/reservation/${mine.id}/cancel`, holly)).statusCode).toBe(200);
    expect((await post(`/api/v1/bookings/reservation/${mine.id}/refresh`, holly)).json().code).toBe('HOLD_EXPIRED');
  });

  it("answers 404 for another customer's hold, never 403", async () => {
    const mine = (await hold(holly, session('11:20').id)).json();
    for (const res of [
      await t.app.inject({ url: `/api/v1/bookings/reservation/${mine.id}`, headers: noel.headers }),
      await post(`/api/v1/bookings/reservation/${mine.id}/refresh`, noel),
      await post(`/api/v1/bookings/reservation/${mine.id}/cancel`, noel),
    ]) {
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    expect(await statusOf(session('11:20').id)).toBe('reserved');
  });

  it('refuses breaks, past sessions and sessions inside the lead time', async () => {
    const brk = sessions.find((s) => s.kind === 'break')!;
    expect((await hold(holly, brk.id)).json().code).toBe('SLOT_UNAVAILABLE');
    clock.set(new Date(new Date(session('11:30').startAt).getTime() - 59 * MINUTE));
    holly = await reauthenticate(t.app.idTokens, holly);
    expect((await hold(holly, session('11:30').id)).json().code).toBe('SLOT_UNAVAILABLE');
    clock.set(new Date(new Date(session('11:40').startAt).getTime() - 60 * MINUTE));
    expect((await hold(holly, session('11:40').id)).statusCode).toBe(201);
  });

  it('validates input and changes nothing on bad input', async () => {
    expect((await hold(holly, 'nope')).json().code).toBe('VALIDATION_FAILED');
    const extra = await post('/api/v1/bookings/reservation', holly, { slotId: session('13:00').id, price: 0 });
    expect(extra.json().code).toBe('VALIDATION_FAILED');
    expect(await statusOf(session('13:00').id)).toBe('available');
    expect((await hold(holly, '7c9e6679-7425-40de-944b-e07fc1f90ae7')).statusCode).toBe(404);
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/bookings/reservation',
          payload: { slotId: session('13:00').id },
        })
      ).statusCode,
    ).toBe(401);
  });

  it('sweeps lapsed holds: marks them expired and clears the slot', async () => {
    const mine = (await hold(holly, session('13:10').id)).json();
    clock.advance(11 * MINUTE);
    await expireLapsedHolds(t.db, clock.now());
    const [row] = await t.db.select().from(reservations).where(eq(reservations.id, mine.id));
    expect(row!.status).toBe('expired');
    expect(await statusOf(session('13:10').id)).toBe('available');
  });
});
