import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import {
  expectContractError,
  fillPath,
  stateChecksum,
  UUID_ZERO,
  type BookingWorld,
  type Operation,
} from './security-fixtures';
import { accessWorld, key, type AccessWorld } from './access-fixtures';
import { isStaffRoute, OWNED, SHARED, SIGNED, VOUCHER } from './route-ownership';
import { LOCATION_SCOPED, NOT_LOCATION_SCOPED } from './staff-routes';

/**
 * ASVS 4.1–4.2: every route that takes an id answers 404 NOT_FOUND for another customer's
 * resource and changes nothing (API.md: "never 403"); every token route refuses staff, no token
 * and (where API.md says so) an unverified e-mail. Routes come from the served OpenAPI document,
 * so a new route fails here until it is classified below.
 */

/** Token routes an unverified customer may call (API.md "unverified ok"). */
const UNVERIFIED_OK = [
  'GET /api/v1/user/me',
  'POST /api/v1/user/auth/email-verification',
  'POST /api/v1/auth/sign-out-everywhere',
  'PUT /api/v1/user/me/email',
];

describe('access control on every route', () => {
  let a: AccessWorld;
  let w: BookingWorld;
  let ops: Operation[];
  let alice: TestCustomer;
  let mallory: TestCustomer;
  let aliceIds: AccessWorld['aliceIds'];
  let aliceHeldSlot: string;

  beforeAll(async () => {
    a = await accessWorld();
    ({ w, ops, alice, mallory, aliceIds, aliceHeldSlot } = a);
  });
  afterAll(async () => w?.close());

  it('knows every route with a path parameter (a new one must be classified here)', () => {
    const withParams = ops.filter((op) => op.pathParams.length).map((op) => op.path);
    expect(
      withParams.filter(
        (p) => !OWNED[p] && !SHARED.includes(p) && !SIGNED.includes(p) && !VOUCHER.includes(p) && !isStaffRoute(p),
      ),
    ).toEqual([]);
    expect(Object.keys(OWNED).filter((p) => !withParams.includes(p))).toEqual([]);
  });

  it(
    'answers 404 NOT_FOUND to another customer on every {id} route, for each of her resources, and changes ' +
      'nothing',
    async () => {
      const before = await stateChecksum(w.t.app);
      const tried: string[] = [];
      for (const op of ops.filter((o) => OWNED[o.path])) {
        const params = OWNED[op.path]!;
        const kinds = new Set(Object.values(params));
        // Every combination of Alice's ids the route takes (an order with its own booking).
        const fills: Record<string, string>[] = kinds.has('order')
          ? aliceIds.orders.map((o) =>
              Object.fromEntries(
                Object.entries(params).map(([name, kind]) => [name, kind === 'order' ? o.orderId : o.bookingId]),
              ),
            )
          : (kinds.has('reservation')
              ? aliceIds.reservations
              : kinds.has('waitlist')
                ? aliceIds.waitlist
                : aliceIds.bookings
            ).map((id) => Object.fromEntries(Object.keys(params).map((name) => [name, id])));
        for (const values of fills) {
          const url = fillPath(op.path, values);
          const res = await a.send(op, url, mallory.headers);
          expect(res.statusCode, `${op.method} ${url}: ${res.body}`).toBe(404);
          expectContractError(res, 404, 'NOT_FOUND');
          tried.push(`${op.method} ${url}`);
        }
      }
      expect(tried.length).toBeGreaterThanOrEqual((Object.keys(OWNED).length - 1) * 3 + 2);
      expect(await stateChecksum(w.t.app)).toEqual(before);
    },
  );

  it('mixes ids: her order under his booking id, his booking with her hold, her hold in his cart', async () => {
    // One hold per family (decision 0059): his hold goes before he books, and his booking is paid before he holds
    // again.
    await w.post(`/api/v1/bookings/reservation/${a.state.malloryHold.reservationId}/cancel`, mallory);
    const mine = await w.book(mallory, { pay: true });
    a.state.malloryHold = await w.holdAndCart(mallory);
    const before = await stateChecksum(w.t.app);
    const hers = aliceIds.orders[1]!;
    expectContractError(
      await w.get(`/api/v1/orders/${mine.bookingId}/orders/${hers.orderId}`, mallory),
      404,
      'NOT_FOUND',
    );
    expectContractError(
      await w.get(`/api/v1/orders/${mine.bookingId}/orders/${hers.orderId}/payment-receipt`, mallory),
      404,
      'NOT_FOUND',
    );
    expectContractError(
      await w.post(`/api/v1/bookings/${mine.bookingId}/reschedule`, mallory, {
        reservationId: aliceIds.reservations[3],
      }),
      404,
      'NOT_FOUND',
    );
    expectContractError(
      await w.post('/api/v1/cart', mallory, {
        reservationId: aliceIds.reservations[3],
        amount: 0,
        packages: [{ id: randomUUID(), quantity: 1 }],
        addOns: [],
      }),
      404,
      'NOT_FOUND',
    );
    // Her cart on his hold answers exactly as an unknown cart does (API.md's 409 CART_INVALID): no leak.
    const herCart = await w.post(
      `/api/v1/bookings/reservation/${a.state.malloryHold.reservationId}/checkoutOrder`,
      mallory,
      {
        cartId: aliceIds.carts[0],
      },
    );
    const noCart = await w.post(
      `/api/v1/bookings/reservation/${a.state.malloryHold.reservationId}/checkoutOrder`,
      mallory,
      {
        cartId: UUID_ZERO,
      },
    );
    expectContractError(herCart, 409, 'CART_INVALID');
    expect(herCart.body).toBe(noCart.body);
    // Rescheduling her booking through a hold: the booking is not his.
    expectContractError(
      await w.post('/api/v1/bookings/reservation', mallory, {
        slotId: a.state.malloryHold.slotId,
        bookingId: hers.bookingId,
      }),
      404,
      'NOT_FOUND',
    );
    // Her held session is simply taken for him (shared slot, no leak of who holds it).
    expectContractError(
      await w.post('/api/v1/bookings/reservation', mallory, { slotId: aliceHeldSlot }),
      409,
      'SLOT_UNAVAILABLE',
    );
    expect((await stateChecksum(w.t.app)).bookings).toEqual(before.bookings);
    expect((await stateChecksum(w.t.app)).orders).toEqual(before.orders);
    // His lists show only his own.
    for (const list of ['upcoming-bookings', 'past-bookings']) {
      const items = (await w.get(`/api/v1/bookings/${list}`, mallory)).json().items as { id: string }[];
      expect(items.filter((b) => aliceIds.bookings.includes(b.id))).toEqual([]);
    }
    // His waitlist shows none of her entries, and joining changes nothing of hers.
    expect((await w.get('/api/v1/waitlist', mallory)).json().items).toEqual([]);
  });

  it("answers unknown ids as 404 NOT_FOUND too (the same as someone else's)", async () => {
    for (const op of ops.filter((o) => OWNED[o.path])) {
      const url = fillPath(op.path, Object.fromEntries(op.pathParams.map((p) => [p, UUID_ZERO])));
      expectContractError(await a.send(op, url, alice.headers), 404, 'NOT_FOUND');
    }
  });

  it(
    "lists the visitor's catalogue as public with no app check, and answers it with no headers at all (issue " + '53)',
    async () => {
      const catalogue = ops.find((o) => key(o) === 'GET /api/v1/common/catalogue');
      expect(catalogue).toMatchObject({ token: false, pathParams: [] });
      const doc = (await w.t.app.inject('/api/v1/openapi.json')).json() as {
        paths: Record<string, Record<string, { security?: Record<string, unknown>[] }>>;
      };
      const security = doc.paths['/api/v1/common/catalogue']!.get!.security ?? [];
      expect(security.some((s) => 'appCheck' in s || 'idToken' in s)).toBe(false);
      const res = await w.t.app.inject('/api/v1/common/catalogue');
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['cache-control']).toMatch(/^public/);
      // Its neighbour stays a customer route: the catalogue is the only visitor read under /common/ with bookable data.
      expect(ops.find((o) => key(o) === 'GET /api/v1/common/locations')).toMatchObject({ token: true });
    },
  );

  it('refuses a staff token on every customer route with 403 STAFF_NOT_ALLOWED, and no token with 401', async () => {
    const staff = await createCustomer(w.t.db, w.t.app.idTokens, { staff: true });
    const tokenOps = ops.filter((o) => o.token && !isStaffRoute(o.path));
    expect(tokenOps.length).toBeGreaterThan(20);
    const before = await stateChecksum(w.t.app);
    for (const op of tokenOps) {
      const url = fillPath(op.path, Object.fromEntries(op.pathParams.map((p) => [p, randomUUID()])));
      const asStaff = await a.send(op, url, staff.headers);
      expectContractError(asStaff, 403, 'STAFF_NOT_ALLOWED');
      expect(asStaff.json().error).toBe('Not Authorized to login');
      expectContractError(await a.send(op, url, {}), 401, 'UNAUTHENTICATED');
    }
    expect(await stateChecksum(w.t.app)).toEqual(before);
  });

  it(
    'refuses a customer (verified or not) on every staff route with 403 STAFF_ONLY, and no token with ' + '401',
    async () => {
      // The one public route under /staff/ is the invitation's (no account to sign in with yet).
      expect(ops.filter((o) => isStaffRoute(o.path) && !o.token).map(key)).toEqual([
        'POST /api/v1/staff/invitations/accept',
      ]);
      const staffOps = ops.filter((o) => isStaffRoute(o.path) && o.token);
      expect(staffOps.map(key).sort()).toEqual([...LOCATION_SCOPED, ...NOT_LOCATION_SCOPED].sort());
      const unverified = await createCustomer(w.t.db, w.t.app.idTokens, { verified: false });
      const before = await stateChecksum(w.t.app);
      for (const op of staffOps) {
        const url =
          fillPath(op.path, { id: aliceIds.bookings[1]!, locationId: UUID_ZERO, version: '1' }) + a.queryFor(op);
        for (const who of [alice, mallory, unverified]) {
          const res = await a.send(op, url, who.headers);
          expectContractError(res, 403, 'STAFF_ONLY');
          expect(res.json().error).toBe('Staff only');
        }
        expectContractError(await a.send(op, url, {}), 401, 'UNAUTHENTICATED');
      }
      expect(await stateChecksum(w.t.app)).toEqual(before);
      // The same calls with a staff token get past access control (the answers are the routes' own):
      // a `set` account, on the routes its role may call (every role on every route: staff-roles.test.ts).
      const staff = await createCustomer(w.t.db, w.t.app.idTokens, { staff: true });
      const doc = (await w.t.app.inject('/api/v1/openapi.json')).json() as {
        paths: Record<string, Record<string, { 'x-staff-roles'?: string[] }>>;
      };
      const forSet = (o: (typeof staffOps)[number]) =>
        (doc.paths[o.path]![o.method.toLowerCase()]!['x-staff-roles'] ?? []).includes('set');
      // "Sign out everywhere" last: it ends this token's session (decision 0063).
      const endsSession = (o: (typeof staffOps)[number]) => Number(key(o) === 'POST /api/v1/staff/sign-out-everywhere');
      for (const op of staffOps.filter(forSet).sort((a, b) => endsSession(a) - endsSession(b))) {
        const res = await a.send(
          op,
          fillPath(op.path, { id: aliceIds.bookings[1]!, locationId: UUID_ZERO, version: '1' }) + a.queryFor(op),
          staff.headers,
        );
        expect([401, 403], `${key(op)}: ${res.body}`).not.toContain(res.statusCode);
      }
    },
  );

  it(
    'refuses an unverified customer with 403 EMAIL_NOT_VERIFIED everywhere but the "unverified ok" ' + 'routes',
    async () => {
      const unverified = await createCustomer(w.t.db, w.t.app.idTokens, { verified: false });
      for (const op of ops.filter((o) => o.token && !isStaffRoute(o.path) && !UNVERIFIED_OK.includes(key(o)))) {
        const url = fillPath(op.path, Object.fromEntries(op.pathParams.map((p) => [p, randomUUID()])));
        expectContractError(await a.send(op, url, unverified.headers), 403, 'EMAIL_NOT_VERIFIED');
      }
      expect((await w.get('/api/v1/user/me', unverified)).statusCode).toBe(200);
    },
  );

  it('leaves her things working for her afterwards', async () => {
    const paid = aliceIds.orders[1]!;
    expect((await w.get(`/api/v1/bookings/${paid.bookingId}`, alice)).json().status).toBe('completed');
    expect(
      (await w.get(`/api/v1/orders/${paid.bookingId}/orders/${paid.orderId}/payment-receipt`, alice)).headers[
        'content-type'
      ],
    ).toBe('application/pdf');
    expect((await w.get('/api/v1/waitlist', alice)).json().items.map((e: { id: string }) => e.id)).toEqual(
      aliceIds.waitlist,
    );
    const refunded = aliceIds.orders[0]!;
    expect(
      (await w.get(`/api/v1/orders/${refunded.bookingId}/orders/${refunded.orderId}/refund-receipt`, alice)).statusCode,
    ).toBe(200);
  });
});
