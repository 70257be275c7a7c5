import { addDays } from '@kringle/contracts/dates';
import { describe, expect, it } from 'vitest';
import { expectContractError } from '../security/security-fixtures';
import { staffApp } from './staff-app-fixture';
import { bookDirect, FAMILY, SYDNEY } from './staff-fixtures';

/**
 * Issue 19's staff API (API.md "Staff") against real PostgreSQL on a day of the demo season: access, run sheet.
 * Check-in and no-show: staff-check-in.test.ts.
 */
describe('staff app API', () => {
  const { w, session } = staffApp();

  describe('access', () => {
    it('refuses a customer with 403 STAFF_ONLY and no token with 401; lets staff in', async () => {
      const url = `/staff/run-sheet?locationId=${w.sydney}`;
      const refused = await w.call('GET', url, w.family);
      expectContractError(refused, 403, 'STAFF_ONLY');
      expect(refused.json().error).toBe('Staff only');
      expectContractError(await w.call('GET', url, null), 401, 'UNAUTHENTICATED');
      expect((await w.call('GET', url, w.elf)).statusCode).toBe(200);
      // And the customer routes still refuse staff.
      expectContractError(await w.call('GET', '/bookings/upcoming-bookings', w.elf), 403, 'STAFF_NOT_ALLOWED');
    });
  });

  it('lists locations, packages and add-ons for the staff app', async () => {
    const catalogue = (await w.call('GET', '/staff/catalogue', w.elf)).json();
    expect(catalogue.locations.map((l: { id: string }) => l.id)).toContain(w.sydney);
    expect(catalogue.packages).toContainEqual({
      id: w.classic,
      name: 'Classic Print',
      priceCents: 3995,
      maxQuantity: 3,
      slotTypeSlugs: null,
    });
    expect(catalogue.addOns.length).toBeGreaterThan(0);
    expectContractError(await w.call('GET', '/staff/catalogue', w.family), 403, 'STAFF_ONLY');
  });

  describe('run sheet', () => {
    it(
      "lists every session and break of the w.day in order, today in the location's zone by default, with " + 'counts',
      async () => {
        const s = session();
        const booked = await bookDirect(w.t.db, w.family, s.id);
        const sheet = (await w.call('GET', `/staff/run-sheet?locationId=${w.sydney}`, w.elf)).json();
        expect(sheet).toMatchObject({ date: w.day, timezone: SYDNEY, location: { id: w.sydney, timezone: SYDNEY } });
        const starts = sheet.items.map((i: { slot: { startAt: string } }) => i.slot.startAt);
        expect(starts).toEqual([...starts].sort());
        expect(sheet.items.some((i: { slot: { kind: string } }) => i.slot.kind === 'break')).toBe(true);
        const item = sheet.items.find((i: { booking: { id: string } | null }) => i.booking?.id === booked.id);
        expect(item.slot).toMatchObject({
          id: s.id,
          kind: 'session',
          state: 'booked',
          slotType: { slug: 'standard', name: 'Santa photos', allowsPets: false },
        });
        expect(item.booking).toMatchObject({
          reference: booked.reference,
          status: 'completed',
          source: 'online',
          attendance: 'confirmed',
          customer: { firstName: 'Olive', lastName: 'Ng', email: w.family.email },
          details: FAMILY,
          items: [expect.objectContaining({ name: 'Classic Print', quantity: 1 })],
          checkedInAt: null,
          noShowAt: null,
          actions: [],
          checkInCode: null,
        });
        expect(sheet.counts).toMatchObject({ booked: 1, checkedIn: 0, noShow: 0, cancelled: 0, people: 4 });
        expect(sheet.counts.sessions).toBeGreaterThan(30);
        expect(sheet.counts.breaks).toBeGreaterThan(0);
        expect(sheet.counts.free).toBe(sheet.counts.sessions - 1);
      },
    );

    it('filter=break lists the breaks only; another date is that w.day there', async () => {
      const breaks = (
        await w.call('GET', `/staff/run-sheet?locationId=${w.sydney}&date=${w.day}&filter=break`, w.elf)
      ).json();
      expect(breaks.items.length).toBeGreaterThan(0);
      expect(
        breaks.items.every(
          (i: { slot: { kind: string; state: string } }) => i.slot.kind === 'break' && i.slot.state === 'break',
        ),
      ).toBe(true);
      const tomorrow = (
        await w.call('GET', `/staff/run-sheet?locationId=${w.sydney}&date=${addDays(w.day, 1)}`, w.elf)
      ).json();
      expect(tomorrow.date).toBe(addDays(w.day, 1));
      expect(tomorrow.items.every((i: { booking: unknown }) => i.booking === null)).toBe(true);
    });

    it('shows a paid booking that was cancelled, but not an unpaid checkout', async () => {
      const freed = session();
      const gone = await bookDirect(w.t.db, w.family, freed.id, { status: 'cancelled' });
      const unpaid = await bookDirect(w.t.db, w.family, session().id, { status: 'payment_pending' });
      const sheet = (await w.call('GET', `/staff/run-sheet?locationId=${w.sydney}`, w.elf)).json();
      const ids = sheet.items.map((i: { booking: { id: string } | null }) => i.booking?.id);
      expect(ids).toContain(gone.id);
      expect(ids).not.toContain(unpaid.id);
      expect(
        sheet.items.find((i: { booking: { id: string } | null }) => i.booking?.id === gone.id).booking.attendance,
      ).toBe('cancelled');
      // Its session is free again, so it also has a row with no booking: staff can sell it.
      type Row = { slot: { id: string; state: string }; booking: { id: string } | null };
      const rows = sheet.items.filter((i: Row) => i.slot.id === freed.id);
      expect(rows.map((i: Row) => i.booking?.id ?? null)).toEqual([gone.id, null]);
      expect(rows[1].slot.state).toBe('free');
    });

    it(
      'validates its query: 400 for a bad date, filter or location id, an unknown field; 404 for an unknown ' +
        'location',
      async () => {
        for (const q of [
          `locationId=${w.sydney}&date=2026-13-01`,
          `locationId=${w.sydney}&filter=w.sessions`,
          'locationId=nope',
          `locationId=${w.sydney}&extra=1`,
          '',
        ]) {
          expectContractError(await w.call('GET', `/staff/run-sheet?${q}`, w.elf), 400, 'VALIDATION_FAILED');
        }
        expectContractError(
          await w.call('GET', '/staff/run-sheet?locationId=00000000-0000-4000-8000-000000000000', w.elf),
          404,
          'NOT_FOUND',
        );
      },
    );
  });
});
