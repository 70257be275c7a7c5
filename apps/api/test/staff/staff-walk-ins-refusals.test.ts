import { addDays, zonedToInstant } from '@kringle/contracts/dates';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectContractError } from '../security/security-fixtures';
import { createPerson, FAMILY, FAMILY_AS_SENT, SYDNEY } from './staff-fixtures';
import { walkIns } from './walk-in-fixture';

/** Issue 19's walk-ins (API.md "Staff"): what staff may not sell, and what a walk-in's body may not say. */
describe('staff app API: walk-ins and CSV', () => {
  const { w, session, body } = walkIns();

  describe('walk-ins', () => {
    it('409 SLOT_UNAVAILABLE for a session held online, a break, one over, or one on another day', async () => {
      // A later session (the hold's lead time), by a w.family with no other bookings.
      const held = w.sessions.at(-3)!;
      const holder = await createPerson(w.t.db, false);
      const hold = await w.call('POST', '/bookings/reservation', holder, { slotId: held.id });
      expect(hold.statusCode, hold.body).toBe(201);
      expectContractError(await w.call('POST', '/staff/walk-ins', w.elf, body(held.id)), 409, 'SLOT_UNAVAILABLE');
      const brk = (await w.call('GET', `/staff/run-sheet?locationId=${w.sydney}&filter=break`, w.elf)).json().items[0]
        .slot.id;
      expectContractError(await w.call('POST', '/staff/walk-ins', w.elf, body(brk)), 409, 'SLOT_UNAVAILABLE');
      const early = w.sessions[0]!;
      w.clock.set(zonedToInstant(w.day, '16:00', SYDNEY));
      expectContractError(await w.call('POST', '/staff/walk-ins', w.elf, body(early.id)), 409, 'SLOT_UNAVAILABLE');
      w.clock.set(zonedToInstant(addDays(w.day, -1), '12:00', SYDNEY));
      expectContractError(
        await w.call('POST', '/staff/walk-ins', w.elf, body(w.sessions.at(-1)!.id)),
        409,
        'SLOT_UNAVAILABLE',
      );
      expectContractError(
        await w.call('POST', '/staff/walk-ins', w.elf, body('00000000-0000-4000-8000-000000000000')),
        404,
        'NOT_FOUND',
      );
    });

    it('400 for details the session does not allow, items not offered, and every limit of the body', async () => {
      const slotId = w.sessions.at(-2)!.id;
      const bad = [
        { details: { ...FAMILY_AS_SENT, pets: 1 } },
        { details: { ...FAMILY_AS_SENT, adults: 7 } },
        { details: { ...FAMILY_AS_SENT, children: [], adults: 0 } },
        { packages: [{ id: '00000000-0000-4000-8000-000000000000', quantity: 1 }] },
        { packages: [] },
        { packages: [{ id: w.classic, quantity: 4 }] },
        { addOns: [{ id: w.classic, quantity: 11 }] },
        { firstName: '' },
        { lastName: 'x'.repeat(61) },
        { email: 'not-an-email' },
        { surprise: true },
      ];
      for (const extra of bad) {
        const res = await w.call('POST', '/staff/walk-ins', w.elf, body(slotId, extra));
        expectContractError(res, 400, 'VALIDATION_FAILED');
      }
      const pets = await w.call(
        'POST',
        '/staff/walk-ins',
        w.elf,
        body(slotId, { details: { ...FAMILY_AS_SENT, pets: 1 } }),
      );
      expect(pets.json().details).toEqual([{ path: 'body.details.pets', message: 'Pets come to pet nights only.' }]);
      // Nothing was sold.
      expect((await w.call('POST', '/staff/walk-ins', w.elf, body(slotId))).statusCode).toBe(201);
    });

    it("asks the parent's consent for access needs (400 CONSENT_REQUIRED), and records who asked", async () => {
      const slotId = session().id;
      const refused = await w.call('POST', '/staff/walk-ins', w.elf, body(slotId, { details: FAMILY }));
      expectContractError(refused, 400, 'CONSENT_REQUIRED');
      expect(refused.json().details).toEqual([{ path: 'body.details.consent', message: expect.any(String) }]);
      const sold = await w.call('POST', '/staff/walk-ins', w.elf, body(slotId));
      expect(sold.statusCode, sold.body).toBe(201);
      const consents = (
        await w.t.db.execute(sql`select user_id, recorded_by from consents where booking_id = ${sold.json().id}::uuid`)
      ).rows;
      expect(consents).toEqual([{ user_id: null, recorded_by: w.elf.id }]);
    });
  });
});
