import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookings } from '../../src/db/schema/bookings';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { createCustomer, reauthenticate, type TestCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';

const NOW = new Date('2026-12-01T00:00:00Z');
const HOUR = 3_600_000;

describe('my bookings: lists and detail', () => {
  let t: TestApp;
  let clock: ManualClock;
  let family: TestCustomer;
  let slotRows: { id: string; location_id: string; slot_type_id: string; start_at: string }[];

  beforeAll(async () => {
    clock = new ManualClock(NOW);
    t = await createTestApp({}, clock);
    await loadSeason(t.db, demoSeason(NOW), NOW);
    family = await createCustomer(t.db, t.app.idTokens);
    const rows = await t.db.execute(
      sql`select id, location_id, slot_type_id, start_at from slots where kind = 'session' and start_at >
${new Date(NOW.getTime() + 72 * HOUR).toISOString()}::timestamptz order by start_at limit 30`,
    );
    slotRows = rows.rows as typeof slotRows;
    // 25 confirmed bookings straight in the database: these tests are about reading them.
    await t.db.insert(bookings).values(
      slotRows.slice(0, 25).map((s, i) => ({
        reference: `KR-T${String(i).padStart(4, '0')}`,
        userId: family.id,
        locationId: s.location_id,
        slotId: s.id,
        slotTypeId: s.slot_type_id,
        status: 'completed' as const,
        source: (i === 3 ? 'walkin' : 'online') as 'walkin' | 'online',
        items: [
          {
            id: s.id,
            type: 'package' as const,
            name: 'Classic Print',
            quantity: 1,
            unitPriceCents: 3995,
            totalCents: 3995,
          },
        ],
        amountCents: 3995,
      })),
    );
    // Each paid, as a confirmed booking is: what it may refund is what is left on its order (decision 0082).
    await t.db.execute(sql`insert into orders (booking_id, user_id, status, items, amount_cents, paid_at)
      select id, user_id, 'paid', items, amount_cents, ${NOW.toISOString()}::timestamptz from bookings where user_id =
      ${family.id}::uuid`);
  });
  afterAll(async () => t.close());

  const get = (url: string, who = family) => t.app.inject({ url, headers: who.headers });

  it('pages through upcoming bookings soonest first with a cursor', async () => {
    const first = (await get('/api/v1/bookings/upcoming-bookings')).json();
    expect(first.items).toHaveLength(20);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = (await get(`/api/v1/bookings/upcoming-bookings?cursor=${first.nextCursor}`)).json();
    expect(second.items).toHaveLength(5);
    expect(second.nextCursor).toBeNull();
    const starts = [...first.items, ...second.items].map((b: { slot: { startAt: string } }) => b.slot.startAt);
    expect(starts).toEqual([...starts].sort());
    expect(new Set([...first.items, ...second.items].map((b: { id: string }) => b.id)).size).toBe(25);
    const walkin = [...first.items, ...second.items].find((b: { reference: string }) => b.reference === 'KR-T0003');
    expect(walkin).toMatchObject({
      source: 'walkin',
      status: 'completed',
      currency: 'AUD',
      location: { timezone: expect.any(String) },
    });
    expect((await get('/api/v1/bookings/upcoming-bookings?cursor=garbage')).json().code).toBe('VALIDATION_FAILED');
  });

  it('computes what the policy allows from the session time', async () => {
    const { items } = (await get('/api/v1/bookings/upcoming-bookings')).json();
    const target = items[0];
    expect(target).toMatchObject({ canReschedule: true, canCancel: true, refundableCents: 3995, rescheduleCount: 0 });
    clock.set(new Date(new Date(target.slot.startAt).getTime() - 47 * HOUR));
    family = await reauthenticate(t.app.idTokens, family);
    expect((await get(`/api/v1/bookings/${target.id}`)).json()).toMatchObject({
      canReschedule: true,
      canCancel: true,
      refundableCents: 0,
    });
    clock.set(new Date(new Date(target.slot.startAt).getTime() - 23 * HOUR));
    family = await reauthenticate(t.app.idTokens, family);
    expect((await get(`/api/v1/bookings/${target.id}`)).json()).toMatchObject({
      canReschedule: false,
      canCancel: true,
      refundableCents: 0,
    });
    clock.set(new Date(new Date(target.slot.startAt).getTime() + HOUR));
    family = await reauthenticate(t.app.idTokens, family);
    const past = (await get('/api/v1/bookings/past-bookings')).json();
    // Other bookings may start at the same instant at another location.
    expect(past.items.find((b: { id: string }) => b.id === target.id)).toMatchObject({
      canCancel: false,
      canReschedule: false,
    });
    expect(
      (await get('/api/v1/bookings/upcoming-bookings')).json().items.map((b: { id: string }) => b.id),
    ).not.toContain(target.id);
    clock.set(NOW);
    family = await reauthenticate(t.app.idTokens, family);
  });

  it("answers 404 for another customer's booking", async () => {
    const { items } = (await get('/api/v1/bookings/upcoming-bookings')).json();
    const stranger = await createCustomer(t.db, t.app.idTokens);
    const res = await get(`/api/v1/bookings/${items[0].id}`, stranger);
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('NOT_FOUND');
    expect((await get('/api/v1/bookings/upcoming-bookings', stranger)).json().items).toEqual([]);
  });
});
