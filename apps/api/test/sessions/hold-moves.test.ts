import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reservations } from '../../src/db/schema/reservations';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { releaseHoldRow } from '../../src/modules/sessions/holds.repository';
import { moveBookingHold } from '../../src/modules/sessions/system-holds.repository';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';

const NOW = new Date('2026-12-01T00:00:00Z');

/**
 * The session table (sessions/session-table.ts) applied by the statements themselves: a move the
 * table refuses changes no hold row, whoever calls it.
 */
describe('hold moves refused by the statements', () => {
  let t: TestApp;
  let slotIds: string[];
  let family: TestCustomer;

  beforeAll(async () => {
    t = await createTestApp({}, new ManualClock(NOW));
    await loadSeason(t.db, demoSeason(NOW), NOW);
    family = await createCustomer(t.db, t.app.idTokens);
    const loc = (await t.app.inject({ url: '/api/v1/common/locations', headers: family.headers })).json().items[0];
    const items: { id: string; kind: string; status: string }[] = (
      await t.app.inject({
        url: `/api/v1/booking-slot/${loc.id}/available-slots?date=2026-12-03&slotTypeId=${loc.slotTypes[0].id}`,
        headers: family.headers,
      })
    ).json().items;
    slotIds = items.filter((s) => s.kind === 'session' && s.status === 'available').map((s) => s.id);
  });
  afterAll(async () => t.close());

  const rowOf = async (id: string) => (await t.db.select().from(reservations).where(eq(reservations.id, id)))[0]!;

  it('a live hold is not lapsed or cancelled as a checkout, and a checked-out one is not let go', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/bookings/reservation',
      headers: family.headers,
      payload: { slotId: slotIds[0] },
    });
    expect(res.statusCode).toBe(201);
    const id = res.json().id as string;
    const later = new Date(NOW.getTime() + 60_000);
    await t.db.transaction(async (tx) => {
      await moveBookingHold(tx, id, 'lapseCheckout', later);
      await moveBookingHold(tx, id, 'cancelCheckout', later);
    });
    expect(await rowOf(id)).toMatchObject({ status: 'active', updatedAt: NOW });

    await t.db.transaction((tx) => moveBookingHold(tx, id, 'checkOut', later));
    expect((await rowOf(id)).status).toBe('checked_out');
    // The family's release is not a move from booked: the row stays the booking's.
    await t.db.transaction((tx) => releaseHoldRow(tx, id, new Date(later.getTime() + 1)));
    expect(await rowOf(id)).toMatchObject({ status: 'checked_out', updatedAt: later });
    // Nor is a second checkout: nothing comes back or moves twice.
    await t.db.transaction((tx) => moveBookingHold(tx, id, 'checkOut', new Date(later.getTime() + 2)));
    expect((await rowOf(id)).updatedAt).toEqual(later);
  });
});
