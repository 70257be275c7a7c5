import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectContractError } from '../security/security-fixtures';
import { bookDirect, createPerson } from './staff-fixtures';
import { supportDesk } from './support-desk-fixture';

/**
 * Issue 34's support desk (decision 0051): act for a family with a reason: move its booking, change who is coming,
 * cancel or refund. Finding it: support-desk.test.ts.
 */
describe('support desk API', () => {
  const { w, session, support, outboxTo, auditOf } = supportDesk();
  const reason = 'Family phoned: wrong day booked';

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
