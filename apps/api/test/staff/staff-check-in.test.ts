import { addDays, zonedToInstant } from '@kringle/contracts/dates';
import { describe, expect, it } from 'vitest';
import { checkInCodeFor } from '../../src/modules/check-in/check-in-codes';
import { expectContractError } from '../security/security-fixtures';
import { staffApp } from './staff-app-fixture';
import { bookDirect, SYDNEY } from './staff-fixtures';

const MIN = 60_000;

/**
 * Issue 19's staff API (API.md "Staff") against real PostgreSQL on a day of the demo season: check-in, no-show.
 * Access and the run sheet: staff.test.ts.
 */
describe('staff app API', () => {
  const { w, session } = staffApp();

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
