import { expect } from 'vitest';
import { waitlistPass } from '../../src/modules/waitlist/waitlist.hand-off';
import { createCustomer } from '../helpers/customers';
import { oneSessionDays } from '../helpers/waitlist-days';
import { bookingWorld, operations, UUID_ZERO, type Operation } from './security-fixtures';

export const key = (op: Operation) => `${op.method} ${op.path}`;

/**
 * The access-control suite's world: every route from the served OpenAPI document, Alice with one of
 * each thing a family can own, and Mallory with a live hold and cart of his own to send along.
 */
export async function accessWorld() {
  /** Alice's things: a refunded booking, a paid one, an unpaid one (live hold), and a fresh hold. */
  const aliceIds = {
    bookings: [] as string[],
    orders: [] as { bookingId: string; orderId: string }[],
    reservations: [] as string[],
    carts: [] as string[],
    /** Her waitlist entries: one offered (its offer is among her reservations), one waiting. */
    waitlist: [] as string[],
  };
  const w = await bookingWorld();
  const ops = await operations(w.t.app);
  const alice = await createCustomer(w.t.db, w.t.app.idTokens);
  const mallory = await createCustomer(w.t.db, w.t.app.idTokens);
  const refunded = await w.book(alice, { pay: true });
  expect((await w.post(`/api/v1/bookings/${refunded.bookingId}/cancel`, alice, {})).json().refund).toMatchObject({
    status: 'succeeded',
  });
  const paid = await w.book(alice, { pay: true });
  const unpaid = await w.book(alice);
  for (const b of [refunded, paid, unpaid]) {
    aliceIds.bookings.push(b.bookingId);
    aliceIds.orders.push({ bookingId: b.bookingId, orderId: b.orderId });
    aliceIds.reservations.push(b.reservationId);
  }
  // A live hold with its cart: another family's, as Alice's unpaid checkout is her one hold (decision 0059).
  const hold = await w.holdAndCart(await createCustomer(w.t.db, w.t.app.idTokens));
  aliceIds.reservations.push(hold.reservationId);
  aliceIds.carts.push(hold.cartId);
  const aliceHeldSlot = hold.slotId;
  const malloryHold = await w.holdAndCart(mallory);
  // Two sold-out days (Carol and Dan hold each one's last session); Alice waits for both, and Carol lets the first
  // go.
  const [carol, dan] = [await createCustomer(w.t.db, w.t.app.idTokens), await createCustomer(w.t.db, w.t.app.idTokens)];
  const days = await oneSessionDays(w.t.db, 2, { fromDays: 14 });
  const carolHolds: string[] = [];
  for (const [i, day] of days.entries()) {
    carolHolds.push(
      (await w.post('/api/v1/bookings/reservation', i === 0 ? carol : dan, { slotId: day.slotId })).json().id,
    );
    const joined = await w.post('/api/v1/waitlist', alice, {
      locationId: day.locationId,
      slotTypeId: day.slotTypeId,
      date: day.date,
    });
    expect(joined.statusCode, joined.body).toBe(201);
    aliceIds.waitlist.push(joined.json().id);
  }
  await w.post(`/api/v1/bookings/reservation/${carolHolds[0]}/cancel`, carol);
  await waitlistPass(w.t.app)();
  const offered = (await w.get('/api/v1/waitlist', alice)).json().items[0];
  expect(offered).toMatchObject({ status: 'offered', offer: { reservationId: expect.any(String) } });
  aliceIds.reservations.push(offered.offer.reservationId);
  /** Mallory's own live hold and cart, sent along where a body needs them (a test may hold again). */
  const state = { malloryHold };

  /** A valid body for each POST/PATCH with a body, so validation never answers before access control. */
  const bodyFor = (op: Operation): object | undefined =>
    ({
      'POST /api/v1/bookings/reservation/{id}/checkoutOrder': { cartId: state.malloryHold.cartId },
      'POST /api/v1/bookings/{id}/cancel': { reason: 'not mine' },
      'POST /api/v1/bookings/{id}/photos/unlock': { photoIds: [UUID_ZERO] },
      'POST /api/v1/bookings/{id}/photos/checkout': { photoIds: [UUID_ZERO] },
      'POST /api/v1/staff/photos/{id}/assign': { bookingId: UUID_ZERO },
      'POST /api/v1/bookings/{id}/reschedule': { reservationId: state.malloryHold.reservationId },
      'PUT /api/v1/bookings/{id}/details': {
        children: [{ firstName: 'Not', age: 5 }],
        adults: 1,
        pets: 0,
        accessNeeds: [],
        accessNote: '',
        noteForSanta: '',
      },
      'POST /api/v1/staff/check-ins': { locationId: UUID_ZERO, reference: 'KR-22222' },
      'POST /api/v1/staff/locations/{id}/delay': { minutes: 20 },
      'POST /api/v1/staff/walk-ins': {
        slotId: state.malloryHold.slotId,
        firstName: 'Not',
        lastName: 'Staff',
        details: { children: [], adults: 1, pets: 0, accessNeeds: [], accessNote: '', noteForSanta: '' },
        packages: [{ id: UUID_ZERO, quantity: 1 }],
        addOns: [],
        paidWith: 'cash',
      },
    })[key(op)];
  /** Query strings a route needs, so validation never answers before access control. */
  const queryFor = (op: Operation) =>
    op.path.startsWith('/api/v1/staff/run-sheet') || op.path === '/api/v1/staff/photos/batch'
      ? `?locationId=${UUID_ZERO}`
      : '';
  const send = (op: Operation, url: string, headers: Record<string, string>, payload = bodyFor(op)) =>
    w.t.app.inject({ method: op.method as 'GET', url, headers, ...(payload ? { payload } : {}) });
  return { w, ops, alice, mallory, aliceIds, aliceHeldSlot, state, bodyFor, queryFor, send };
}
export type AccessWorld = Awaited<ReturnType<typeof accessWorld>>;
