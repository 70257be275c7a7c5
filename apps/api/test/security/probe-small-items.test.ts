import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { reservations } from '../../src/db/schema/reservations';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REFRESH_COOKIE } from '../../src/modules/accounts/refresh-cookie';
import { APP_ORIGIN, bearer, createSignedInUser, refresh, signIn, refreshCookieOf } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** Issue 36, probe case 11: the smaller findings. */

let t: TestApp;
let customer: Awaited<ReturnType<typeof createSignedInUser>>;
let staff: Awaited<ReturnType<typeof createSignedInUser>>;
beforeAll(async () => {
  t = await createTestApp();
  // Two weeks: the demo's own season ends on Christmas Eve, with no session two days out from 22 December.
  await loadSeason(t.db, demoSeason(t.clock.now(), { days: 14 }), t.clock.now());
  customer = await createSignedInUser(t.app, t.db, 'small-items@example.com', { verified: true });
  staff = await createSignedInUser(t.app, t.db, 'small-items-elf@example.com', { verified: true, staff: true });
});
afterAll(async () => t.close());

describe('dates that do not exist or are far off are 400 VALIDATION_FAILED, not 500 or accepted', () => {
  for (const date of ['9999-12-31', '2026-02-30']) {
    it(date, async () => {
      const urls = [
        { url: `/api/v1/booking-slot/${randomUUID()}/available-slots?date=${date}`, who: customer },
        { url: `/api/v1/staff/run-sheet?locationId=${randomUUID()}&date=${date}`, who: staff },
        { url: `/api/v1/staff/run-sheet.csv?locationId=${randomUUID()}&date=${date}`, who: staff },
      ];
      for (const { url, who } of urls) {
        const res = await t.app.inject({ url, headers: bearer(who.idToken) });
        expect(res.statusCode, url).toBe(400);
        expect(res.json(), url).toMatchObject({ code: 'VALIDATION_FAILED', details: [{ path: 'querystring.date' }] });
      }
    });
  }
});

it('the CORS preflight allows PUT (who is coming is saved with PUT)', async () => {
  const res = await t.app.inject({
    method: 'OPTIONS',
    url: `/api/v1/bookings/${randomUUID()}/details`,
    headers: { origin: APP_ORIGIN, 'access-control-request-method': 'PUT' },
  });
  expect(res.statusCode).toBe(204);
  expect(String(res.headers['access-control-allow-methods'])).toContain('PUT');
});

it('an empty body with a JSON content type is no body, not "not valid JSON"', async () => {
  const session = await signIn(t.app, 'small-items@example.com');
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/sign-out',
    headers: { 'content-type': 'application/json' },
    payload: '',
    cookies: { [REFRESH_COOKIE]: refreshCookieOf(session)! },
  });
  expect(res.statusCode).toBe(204);
  // A required body is still required.
  const signInEmpty = await t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/sign-in',
    headers: { 'content-type': 'application/json' },
    payload: '',
  });
  expect(signInEmpty.statusCode).toBe(400);
  expect(signInEmpty.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
});

it(
  'sign out everywhere revokes every refresh family of the account, and its ID tokens already issued at once ' +
    '(decision 0063)',
  async () => {
    const phone = await signIn(t.app, 'small-items@example.com');
    const laptop = refreshCookieOf(await signIn(t.app, 'small-items@example.com'))!;
    const phoneIdToken = phone.json<{ idToken: string }>().idToken;
    expect((await t.app.inject({ url: '/api/v1/user/me', headers: bearer(phoneIdToken) })).statusCode).toBe(200);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sign-out-everywhere',
      headers: bearer(customer.idToken),
    });
    expect(res.statusCode).toBe(204);
    expect((await refresh(t.app, refreshCookieOf(phone))).statusCode).toBe(401);
    expect((await refresh(t.app, laptop)).statusCode).toBe(401);
    for (const idToken of [phoneIdToken, customer.idToken]) {
      const me = await t.app.inject({ url: '/api/v1/user/me', headers: bearer(idToken) });
      expect(me.statusCode).toBe(401);
      expect(me.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
    }
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/sign-out-everywhere' })).statusCode).toBe(401);
    // Signing in again works: the new token carries the new epoch.
    customer = {
      ...customer,
      idToken: (await signIn(t.app, 'small-items@example.com')).json<{ idToken: string }>().idToken,
    };
    expect((await t.app.inject({ url: '/api/v1/user/me', headers: bearer(customer.idToken) })).statusCode).toBe(200);
  },
);

it(
  'a new cart for a hold that has checked out answers 409 CART_INVALID (its checkout lives on), not ' + 'HOLD_EXPIRED',
  async () => {
    const slotId = (
      await t.db.execute(
        sql`select id from slots where kind = 'session' and start_at > now() + interval '2 days' order by start_at
limit 1`,
      )
    ).rows[0]!.id as string;
    const held = await t.app.inject({
      method: 'POST',
      url: '/api/v1/bookings/reservation',
      headers: bearer(customer.idToken),
      payload: { slotId },
    });
    expect(held.statusCode).toBe(201);
    const reservationId = held.json<{ id: string }>().id;
    await t.db.update(reservations).set({ status: 'checked_out' }).where(eq(reservations.id, reservationId));
    const cart = await t.app.inject({
      method: 'POST',
      url: '/api/v1/cart',
      headers: bearer(customer.idToken),
      payload: { reservationId, amount: 0, packages: [{ id: randomUUID(), quantity: 1 }] },
    });
    expect(cart.statusCode).toBe(409);
    expect(cart.json()).toMatchObject({ code: 'CART_INVALID' });
  },
);
