import { addDays, zonedToInstant } from '@kringle/contracts/dates';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkInCodeFor } from '../../src/modules/check-in/check-in-codes';
import { expectContractError } from '../security/security-fixtures';
import { bookDirect, FAMILY, staffDay, SYDNEY, type StaffDay } from './staff-fixtures';

const MIN = 60_000;

/**
 * Issue 19's staff API (API.md "Staff") against real PostgreSQL on a day of the demo season: access, run sheet,
 * check-in, no-show.
 */
describe('staff app API', () => {
  let w: StaffDay;
  let next = 0;
  const session = () => w.sessions[next++]!;

  beforeAll(async () => {
    w = await staffDay();
  });
  afterAll(async () => w?.t.close());
  // The day, 9:45 am in Sydney: before the first session.
  beforeEach(() => w.clock.set(zonedToInstant(w.day, '09:45', SYDNEY)));

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

  describe('check-in', () => {
    it('by the QR code: 200 with checkedInAt and the action (who, what, when); twice is harmless', async () => {
      const booked = await bookDirect(w.t.db, w.family, session().id);
      const code = await checkInCodeFor(w.t.db, booked);
      const first = await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney, code });
      expect(first.statusCode, first.body).toBe(200);
      expect(first.json()).toMatchObject({
        id: booked.id,
        attendance: 'checked_in',
        checkedInAt: w.clock.now().toISOString(),
        actions: [{ action: 'check_in', staffEmail: w.elf.email, at: w.clock.now().toISOString() }],
      });
      w.clock.advance(5_000);
      const again = await w.call('POST', '/staff/check-ins', w.elf, {
        locationId: w.sydney,
        code: ` ${code.toLowerCase()} `,
      });
      expect(again.statusCode).toBe(200);
      expect(again.json().checkedInAt).toBe(first.json().checkedInAt);
      expect(again.json().actions).toHaveLength(1);
    });

    it('by the reference, as typed (case and spaces forgiven)', async () => {
      const booked = await bookDirect(w.t.db, w.family, session().id);
      const res = await w.call('POST', '/staff/check-ins', w.elf, {
        locationId: w.sydney,
        reference: ` ${booked.reference.toLowerCase()}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().attendance).toBe('checked_in');
    });

    it('404 for an unknown reference or a forged code; 400 for neither or both', async () => {
      const booked = await bookDirect(w.t.db, w.family, session().id);
      expectContractError(
        await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney, reference: 'KR-22222' }),
        404,
        'NOT_FOUND',
      );
      expectContractError(
        await w.call('POST', '/staff/check-ins', w.elf, {
          locationId: w.sydney,
          code: `${booked.reference}-AAAAAAAAAAAAAAAA`,
        }),
        404,
        'NOT_FOUND',
      );
      expectContractError(
        await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney, code: 'not a code' }),
        404,
        'NOT_FOUND',
      );
      expectContractError(
        await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney }),
        400,
        'VALIDATION_FAILED',
      );
      expectContractError(
        await w.call('POST', '/staff/check-ins', w.elf, {
          locationId: w.sydney,
          code: 'x',
          reference: booked.reference,
        }),
        400,
        'VALIDATION_FAILED',
      );
    });

    it(
      '409 BOOKING_CANCELLED for a cancelled booking (its code too), 409 BOOKING_NOT_CONFIRMED for an unpaid ' + 'one',
      async () => {
        const gone = await bookDirect(w.t.db, w.family, session().id, { status: 'cancelled' });
        expectContractError(
          await w.call('POST', '/staff/check-ins', w.elf, {
            locationId: w.sydney,
            code: await checkInCodeFor(w.t.db, gone),
          }),
          409,
          'BOOKING_CANCELLED',
        );
        expectContractError(
          await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney, reference: gone.reference }),
          409,
          'BOOKING_CANCELLED',
        );
        const unpaid = await bookDirect(w.t.db, w.family, session().id, { status: 'payment_pending' });
        expectContractError(
          await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney, reference: unpaid.reference }),
          409,
          'BOOKING_NOT_CONFIRMED',
        );
      },
    );

    it('409 WRONG_LOCATION_OR_DAY naming the place and local time, at another location or on another day', async () => {
      const s = session();
      const booked = await bookDirect(w.t.db, w.family, s.id);
      const elsewhere = await w.call('POST', '/staff/check-ins', w.elf, {
        locationId: w.brisbane,
        reference: booked.reference,
      });
      expectContractError(elsewhere, 409, 'WRONG_LOCATION_OR_DAY');
      expect(elsewhere.json().error).toMatch(
        new RegExp(
          `^Booking ${booked.reference} is for Kringle Sydney, Pitt Street, \\w{3} \\d+ \\w{3,4}, \\d+:\\d\\d [ap]m ` +
            `AE[DS]T`,
        ),
      );
      w.clock.set(zonedToInstant(addDays(w.day, -1), '16:00', SYDNEY));
      expectContractError(
        await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney, reference: booked.reference }),
        409,
        'WRONG_LOCATION_OR_DAY',
      );
      const untouched = (await w.call('GET', `/staff/run-sheet?locationId=${w.sydney}&date=${w.day}`, w.elf)).json();
      expect(
        untouched.items.find((i: { booking: { id: string } | null }) => i.booking?.id === booked.id).booking
          .checkedInAt,
      ).toBeNull();
    });

    it(
      'undo within 60 seconds; after that 409 UNDO_WINDOW_CLOSED; with nothing to undo 409 ' + 'NOTHING_TO_UNDO',
      async () => {
        const a = await bookDirect(w.t.db, w.family, session().id);
        await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney, reference: a.reference });
        w.clock.advance(59_000);
        const undone = await w.call('POST', `/staff/bookings/${a.id}/undo`, w.elf);
        expect(undone.statusCode, undone.body).toBe(200);
        expect(undone.json()).toMatchObject({
          attendance: 'confirmed',
          checkedInAt: null,
          actions: [{ action: 'check_in' }, { action: 'undo_check_in', staffEmail: w.elf.email }],
        });
        expectContractError(await w.call('POST', `/staff/bookings/${a.id}/undo`, w.elf), 409, 'NOTHING_TO_UNDO');
        await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney, reference: a.reference });
        w.clock.advance(61_000);
        expectContractError(await w.call('POST', `/staff/bookings/${a.id}/undo`, w.elf), 409, 'UNDO_WINDOW_CLOSED');
        expectContractError(
          await w.call('POST', '/staff/bookings/00000000-0000-4000-8000-000000000000/undo', w.elf),
          404,
          'NOT_FOUND',
        );
      },
    );
  });

  describe('no-show', () => {
    it(
      'only once the session has started; harmless twice; undone at any time; a late w.family checks in over ' + 'it',
      async () => {
        const s = session();
        const b = await bookDirect(w.t.db, w.family, s.id);
        expectContractError(await w.call('POST', `/staff/bookings/${b.id}/no-show`, w.elf), 409, 'SESSION_NOT_STARTED');
        w.clock.set(new Date(new Date(s.start_at).getTime() + MIN));
        const marked = await w.call('POST', `/staff/bookings/${b.id}/no-show`, w.elf);
        expect(marked.statusCode, marked.body).toBe(200);
        expect(marked.json()).toMatchObject({ attendance: 'no_show', noShowAt: w.clock.now().toISOString() });
        expect((await w.call('POST', `/staff/bookings/${b.id}/no-show`, w.elf)).json().actions).toHaveLength(1);
        w.clock.advance(30 * MIN);
        expect((await w.call('POST', `/staff/bookings/${b.id}/undo`, w.elf)).json()).toMatchObject({
          attendance: 'confirmed',
          noShowAt: null,
        });
        await w.call('POST', `/staff/bookings/${b.id}/no-show`, w.elf);
        const late = await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney, reference: b.reference });
        expect(late.json()).toMatchObject({ attendance: 'checked_in', noShowAt: null });
        expectContractError(await w.call('POST', `/staff/bookings/${b.id}/no-show`, w.elf), 409, 'ALREADY_CHECKED_IN');
        expect(late.json().actions.map((a: { action: string }) => a.action)).toEqual([
          'no_show',
          'undo_no_show',
          'no_show',
          'check_in',
        ]);
      },
    );

    it('409 BOOKING_CANCELLED for a cancelled booking; 404 for an unknown one', async () => {
      const s = session();
      const gone = await bookDirect(w.t.db, w.family, s.id, { status: 'cancelled' });
      w.clock.set(new Date(new Date(s.start_at).getTime() + MIN));
      expectContractError(await w.call('POST', `/staff/bookings/${gone.id}/no-show`, w.elf), 409, 'BOOKING_CANCELLED');
      expectContractError(
        await w.call('POST', '/staff/bookings/00000000-0000-4000-8000-000000000000/no-show', w.elf),
        404,
        'NOT_FOUND',
      );
    });
  });
});
