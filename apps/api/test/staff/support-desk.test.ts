import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { checkInCodeFor } from '../../src/modules/check-in/check-in-codes';
import { expectContractError } from '../security/security-fixtures';
import { bookDirect, createPerson, type Person } from './staff-fixtures';
import { supportDesk } from './support-desk-fixture';

/**
 * Issue 34's support desk (decision 0051): find a family and see its booking. Acting for it with a reason:
 * support-desk-changes.test.ts.
 */
describe('support desk API', () => {
  const { w, session, support, outboxTo } = supportDesk();

  describe('search', () => {
    it(
      'finds a family by part of its name, e-mail, phone, booking reference or its check-in code, never a staff ' +
        'account',
      async () => {
        const family = await createPerson(w.t.db, false, { firstName: 'Wilhelmina', lastName: 'Quixote' });
        await w.t.db.execute(sql`update users set phone = '+61 400 987 654' where id = ${family.id}::uuid`);
        const booked = await bookDirect(w.t.db, family, session().id);
        const code = await checkInCodeFor(w.t.db, booked);
        for (const q of [
          'helmin',
          'quixo',
          family.email.slice(0, 12),
          '987 65',
          booked.reference.slice(3),
          code.toLowerCase(),
        ]) {
          const res = await w.call('GET', `/staff/families?q=${encodeURIComponent(q)}`, support);
          expect(res.statusCode, q).toBe(200);
          const hit = res.json().items.find((i: { user: { id: string } }) => i.user.id === family.id);
          expect(hit, q).toMatchObject({
            user: { email: family.email, firstName: 'Wilhelmina', phone: '+61 400 987 654' },
            bookings: [{ id: booked.id, reference: booked.reference }],
          });
        }
        const staffHit = (await w.call('GET', '/staff/families?q=Support', support)).json();
        expect(staffHit.items.find((i: { user: { id: string } }) => i.user.id === support.id)).toBeUndefined();
      },
    );

    it('finds a phone however it is typed: spaces, brackets, +61 or a leading 0', async () => {
      const family = await createPerson(w.t.db, false, { firstName: 'Phoebe', lastName: 'Dialler' });
      await w.t.db.execute(sql`update users set phone = '0412 555 019' where id = ${family.id}::uuid`);
      for (const q of ['0412555019', '+61 412 555 019', '+61412555019', '(04) 1255-5019', '555 019']) {
        const items = (await w.call('GET', `/staff/families?q=${encodeURIComponent(q)}`, support)).json().items as {
          user: { id: string };
        }[];
        expect(
          items.map((i) => i.user.id),
          q,
        ).toContain(family.id);
      }
      const other = (await w.call('GET', `/staff/families?q=${encodeURIComponent('0499 555 019')}`, support)).json()
        .items as { user: { id: string } }[];
      expect(other.map((i) => i.user.id)).not.toContain(family.id);
    });

    it(
      "support scoped to some locations finds a family only through a booking there, never by another location's " +
        'reference (decision 0079)',
      async () => {
        const family = await createPerson(w.t.db, false, { firstName: 'Lola', lastName: 'Twocentres' });
        await w.t.db.execute(sql`update users set phone = '0412 777 031' where id = ${family.id}::uuid`);
        const booked = await bookDirect(w.t.db, family, session().id);
        const code = await checkInCodeFor(w.t.db, booked);
        const brisbaneOnly = await createPerson(
          w.t.db,
          true,
          { firstName: 'Bea', lastName: 'Brisbane' },
          { role: 'support', locationIds: [w.brisbane], mfaEnrolled: true },
        );
        const found = async (q: string, who: Person) =>
          (await w.call('GET', `/staff/families?q=${encodeURIComponent(q)}`, who)).json().items as {
            user: { id: string };
            bookings: { id: string }[];
          }[];
        // Booked in Sydney only: Brisbane's support finds nothing of the family by any of its details.
        for (const q of ['Twocentres', 'Lola Two', family.email, '0412 777 031', booked.reference, code])
          expect(await found(q, brisbaneOnly), q).toEqual([]);
        // Support covering both locations (and brand-wide support) find it, with the Sydney booking.
        const both = await createPerson(
          w.t.db,
          true,
          { firstName: 'Bo', lastName: 'Both' },
          { role: 'support', locationIds: [w.brisbane, w.sydney], mfaEnrolled: true },
        );
        for (const who of [both, support])
          expect(await found('Twocentres', who)).toEqual([
            expect.objectContaining({
              user: expect.objectContaining({ id: family.id }),
              bookings: [expect.objectContaining({ id: booked.id })],
            }),
          ]);
        // Once the family books in Brisbane, Brisbane's support finds it, shown the Brisbane booking only.
        const [brisbaneSlot] = (
          await w.t.db.execute(
            sql`select s.id from slots s where s.location_id =
${w.brisbane}::uuid and s.kind = 'session' and s.booking_id is null and s.start_at > now() + interval '2 days' order
  by s.start_at limit 1`,
          )
        ).rows as { id: string }[];
        const there = await bookDirect(w.t.db, family, brisbaneSlot!.id);
        for (const q of ['Twocentres', family.email, '0412 777 031', there.reference]) {
          expect(await found(q, brisbaneOnly), q).toEqual([
            expect.objectContaining({
              user: expect.objectContaining({ id: family.id }),
              bookings: [expect.objectContaining({ id: there.id })],
            }),
          ]);
        }
        // Sydney's reference or code still finds nothing for Brisbane's support, though the family is known there.
        for (const q of [booked.reference, code]) expect(await found(q, brisbaneOnly), q).toEqual([]);
        const everywhere = (await w.call('GET', `/staff/families?q=${booked.reference}`, support)).json().items;
        expect(everywhere).toEqual([
          expect.objectContaining({
            bookings: expect.arrayContaining([
              expect.objectContaining({ id: booked.id }),
              expect.objectContaining({ id: there.id }),
            ]),
          }),
        ]);
      },
    );

    it('takes "%" and "_" literally, asks for two characters, and refuses families', async () => {
      expect((await w.call('GET', '/staff/families?q=%25%25', support)).json().items).toEqual([]);
      expectContractError(await w.call('GET', '/staff/families?q=a', support), 400, 'VALIDATION_FAILED');
      expectContractError(await w.call('GET', '/staff/families?q=olive', w.family), 403, 'STAFF_ONLY');
    });
  });

  describe('a booking', () => {
    it('shows orders, refunds, the e-mails sent and the audit trail; 404 for an unknown one', async () => {
      const booked = await bookDirect(w.t.db, w.family, session().id);
      expect(
        (await w.call('POST', `/staff/bookings/${booked.id}/resend`, support, { kind: 'confirmation' })).statusCode,
      ).toBe(202);
      const view = (await w.call('GET', `/staff/bookings/${booked.id}`, support)).json();
      expect(view).toMatchObject({
        id: booked.id,
        orders: [{ amountCents: 3995, refundedCents: 0 }],
        refunds: [],
        audit: [],
      });
      expect(view.emails[0]).toMatchObject({
        subject: expect.stringContaining(booked.reference),
        status: 'pending',
        sentAt: null,
      });
      expectContractError(
        await w.call('GET', '/staff/bookings/00000000-0000-4000-8000-000000000000', support),
        404,
        'NOT_FOUND',
      );
    });

    it('resends the confirmation: 202 and one outbox row', async () => {
      const family = await createPerson(w.t.db, false);
      const booked = await bookDirect(w.t.db, family, session().id);
      const res = await w.call('POST', `/staff/bookings/${booked.id}/resend`, support, { kind: 'confirmation' });
      expect(res.statusCode).toBe(202);
      const mails = await outboxTo(family.email);
      expect(mails).toHaveLength(1);
      expect(mails[0]!.subject).toContain(booked.reference);
      expectContractError(
        await w.call('POST', `/staff/bookings/${booked.id}/resend`, support, { kind: 'receipt' }),
        400,
        'VALIDATION_FAILED',
      );
    });
  });
});
