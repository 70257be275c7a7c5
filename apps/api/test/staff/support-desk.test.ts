import { zonedToInstant } from '@kringle/contracts/dates';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { checkInCodeFor } from '../../src/modules/check-in/check-in-codes';
import { expectContractError } from '../security/security-fixtures';
import { bookDirect, createPerson, SYDNEY, staffDay, type Person, type StaffDay } from './staff-fixtures';

/** Issue 34's support desk (decision 0051): find a family, see its booking, act for it with a reason. */
describe('support desk API', () => {
  let w: StaffDay;
  let next = 0;
  const session = () => w.sessions[next++]!;
  let support: Person;
  /** The audit trail is a manager's to read. */
  let manager: Person;
  const reason = 'Family phoned: wrong day booked';

  beforeAll(async () => {
    w = await staffDay();
    support = await createPerson(
      w.t.db,
      true,
      { firstName: 'Sam', lastName: 'Support' },
      { role: 'support', mfaEnrolled: true },
    );
    manager = await createPerson(
      w.t.db,
      true,
      { firstName: 'Mo', lastName: 'Manager' },
      { role: 'manager', mfaEnrolled: true },
    );
  });
  afterAll(async () => w?.t.close());
  // The day, 9:45 am in Sydney: every session of it is inside the family's reschedule cutoff.
  beforeEach(() => w.clock.set(zonedToInstant(w.day, '09:45', SYDNEY)));

  const outboxTo = async (email: string) =>
    (await w.t.db.execute(sql`select subject, text from mail_outbox where to_address = ${email} order by created_at`))
      .rows as { subject: string; text: string }[];
  const auditOf = async (bookingId: string) =>
    (await w.call('GET', `/staff/audit?bookingId=${bookingId}`, manager)).json().items as {
      action: string;
      reason: string | null;
      actor: { kind: string; id: string; email: string };
      before: Record<string, unknown>;
      after: Record<string, unknown>;
    }[];

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

  describe('reschedule', () => {
    it('moves past the family cutoff with a reason, e-mails the family and writes the audit entry', async () => {
      const family = await createPerson(w.t.db, false);
      const from = session();
      const to = session();
      const booked = await bookDirect(w.t.db, family, from.id);
      expectContractError(
        await w.call('POST', `/staff/bookings/${booked.id}/reschedule`, support, { slotId: to.id }),
        400,
        'VALIDATION_FAILED',
      );
      expectContractError(
        await w.call('POST', `/staff/bookings/${booked.id}/reschedule`, support, { slotId: to.id, reason: ' x ' }),
        400,
        'VALIDATION_FAILED',
      );
      const res = await w.call('POST', `/staff/bookings/${booked.id}/reschedule`, support, { slotId: to.id, reason });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ id: booked.id, slot: { id: to.id }, rescheduleCount: 0 });
      const slots = (
        await w.t.db.execute(sql`select id, booking_id from slots where id in (${from.id}::uuid, ${to.id}::uuid)`)
      ).rows;
      expect(Object.fromEntries(slots.map((s) => [s.id, s.booking_id]))).toEqual({
        [from.id]: null,
        [to.id]: booked.id,
      });
      const [mail] = await outboxTo(family.email);
      expect(mail!.subject).toMatch(/^Moved:/);
      expect(mail!.text).toContain('team made this change');
      expect(await auditOf(booked.id)).toMatchObject([
        {
          action: 'staffReschedule',
          reason,
          actor: { kind: 'staff', id: support.id, email: support.email },
          before: { slotId: from.id },
          after: { slotId: to.id },
        },
      ]);
    });

    it("lists the day's free sessions to move onto, not the taken ones nor its own", async () => {
      const own = session();
      const taken = session();
      const free = session();
      const mine = await bookDirect(w.t.db, w.family, own.id);
      await bookDirect(w.t.db, await createPerson(w.t.db, false), taken.id);
      const res = await w.call('GET', `/staff/bookings/${mine.id}/free-sessions?date=${w.day}`, support);
      expect(res.statusCode, res.body).toBe(200);
      const ids = res.json().items.map((i: { id: string }) => i.id);
      expect(ids).toContain(free.id);
      expect(ids).not.toContain(taken.id);
      expect(ids).not.toContain(own.id);
      expectContractError(
        await w.call('GET', `/staff/bookings/${mine.id}/free-sessions?date=tomorrow`, support),
        400,
        'VALIDATION_FAILED',
      );
    });

    it('never onto a taken session (409 SLOT_UNAVAILABLE, nothing changed), nor to an unknown one (404)', async () => {
      const mine = await bookDirect(w.t.db, w.family, session().id);
      const taken = session();
      await bookDirect(w.t.db, await createPerson(w.t.db, false), taken.id);
      expectContractError(
        await w.call('POST', `/staff/bookings/${mine.id}/reschedule`, support, { slotId: taken.id, reason }),
        409,
        'SLOT_UNAVAILABLE',
      );
      expect(await auditOf(mine.id)).toEqual([]);
      expectContractError(
        await w.call('POST', `/staff/bookings/${mine.id}/reschedule`, support, {
          slotId: '00000000-0000-4000-8000-000000000000',
          reason,
        }),
        404,
        'NOT_FOUND',
      );
      expectContractError(
        await w.call('POST', `/staff/bookings/00000000-0000-4000-8000-000000000000/reschedule`, support, {
          slotId: taken.id,
          reason,
        }),
        404,
        'NOT_FOUND',
      );
    });
  });

  describe('details', () => {
    it(
      "changes who is coming by the family's rules, with a reason, and keeps only the head count in the " + 'trail',
      async () => {
        const booked = await bookDirect(w.t.db, w.family, session().id);
        const details = {
          children: [{ firstName: 'Ada', age: 4 }],
          adults: 1,
          pets: 0,
          accessNeeds: [],
          accessNote: '',
          noteForSanta: '',
        };
        expectContractError(
          await w.call('PUT', `/staff/bookings/${booked.id}/details`, support, { details }),
          400,
          'VALIDATION_FAILED',
        );
        expectContractError(
          await w.call('PUT', `/staff/bookings/${booked.id}/details`, support, {
            details: { ...details, pets: 1 },
            reason,
          }),
          400,
          'VALIDATION_FAILED',
        );
        const res = await w.call('PUT', `/staff/bookings/${booked.id}/details`, support, { details, reason });
        expect(res.statusCode, res.body).toBe(200);
        expect(res.json().details).toMatchObject({ children: [{ firstName: 'Ada', age: 4 }], adults: 1 });
        const [entry] = await auditOf(booked.id);
        expect(entry).toMatchObject({
          action: 'staffEditDetails',
          reason,
          before: { people: 4 },
          after: { people: 2 },
        });
        expect(JSON.stringify(entry)).not.toContain('Ada');
        expectContractError(
          await w.call('PUT', '/staff/bookings/00000000-0000-4000-8000-000000000000/details', support, {
            details,
            reason,
          }),
          404,
          'NOT_FOUND',
        );
      },
    );
  });

  describe('cancel and refunds', () => {
    it('cancels with a full refund inside the refund cutoff, and says so by e-mail', async () => {
      const family = await createPerson(w.t.db, false);
      const booked = await bookDirect(w.t.db, family, session().id);
      expectContractError(
        await w.call('POST', `/staff/bookings/${booked.id}/cancel`, support, { refund: 'full' }),
        400,
        'VALIDATION_FAILED',
      );
      const res = await w.call('POST', `/staff/bookings/${booked.id}/cancel`, support, { reason, refund: 'full' });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toMatchObject({ status: 'cancelled' });
      const view = (await w.call('GET', `/staff/bookings/${booked.id}`, support)).json();
      expect(view.refunds).toMatchObject([{ amountCents: 3995 }]);
      expect(view.audit).toMatchObject([
        { action: 'staffCancel', reason, after: { state: 'cancelled', refundCents: 3995 } },
      ]);
      const [mail] = await outboxTo(family.email);
      expect(mail!.text).toContain('refunding $39.95');
      expectContractError(
        await w.call('POST', `/staff/bookings/${booked.id}/cancel`, support, { reason, refund: 'none' }),
        409,
        'NOT_CANCELLABLE',
      );
    });

    it('the policy refund inside the cutoff is nothing', async () => {
      const booked = await bookDirect(w.t.db, w.family, session().id);
      expect(
        (await w.call('POST', `/staff/bookings/${booked.id}/cancel`, support, { reason, refund: 'policy' })).statusCode,
      ).toBe(200);
      expect((await w.call('GET', `/staff/bookings/${booked.id}`, support)).json().refunds).toEqual([]);
    });

    it('refunds part of an order, never more than is left, even for two refunds at once', async () => {
      const booked = await bookDirect(w.t.db, w.family, session().id);
      const orderId = (await w.t.db.execute(sql`select id from orders where booking_id = ${booked.id}::uuid`)).rows[0]!
        .id as string;
      expectContractError(
        await w.call('POST', `/staff/orders/${orderId}/refunds`, support, { amountCents: 1000 }),
        400,
        'VALIDATION_FAILED',
      );
      expectContractError(
        await w.call('POST', `/staff/orders/${orderId}/refunds`, support, { amountCents: 4000, reason }),
        409,
        'REFUND_TOO_LARGE',
      );
      const both = await Promise.all(
        [1, 2].map(() => w.call('POST', `/staff/orders/${orderId}/refunds`, support, { amountCents: 3000, reason })),
      );
      expect(both.map((r) => r.statusCode).sort()).toEqual([201, 409]);
      expect(both.find((r) => r.statusCode === 409)!.json().code).toBe('REFUND_TOO_LARGE');
      expect(both.find((r) => r.statusCode === 201)!.json()).toMatchObject({ orderId, amountCents: 3000 });
      expect(
        (await w.call('POST', `/staff/orders/${orderId}/refunds`, support, { amountCents: 995, reason })).statusCode,
      ).toBe(201);
      expectContractError(
        await w.call('POST', `/staff/orders/${orderId}/refunds`, support, { amountCents: 1, reason }),
        409,
        'REFUND_TOO_LARGE',
      );
      expect((await auditOf(booked.id)).map((e) => e.action)).toEqual(['refundPart', 'refundPart']);
      expectContractError(
        await w.call('POST', '/staff/orders/00000000-0000-4000-8000-000000000000/refunds', support, {
          amountCents: 1,
          reason,
        }),
        404,
        'NOT_FOUND',
      );
    });
  });
});
