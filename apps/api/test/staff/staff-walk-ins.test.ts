import { eq, sql } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/db/schema/mail';
import { expectContractError } from '../security/security-fixtures';
import { bookDirect, FAMILY, FAMILY_AS_SENT } from './staff-fixtures';
import { walkIns } from './walk-in-fixture';

/**
 * Issue 19's walk-ins (API.md "Staff") against real PostgreSQL on a day of the demo season: selling one, paid in store,
 * confirmed or checked in. Refusals: staff-walk-ins-refusals.test.ts; how it was paid and the CSV:
 * staff-walk-ins-csv.test.ts.
 */
describe('staff app API: walk-ins and CSV', () => {
  const { w, session, body } = walkIns();

  describe('walk-ins', () => {
    it(
      'sells a free session today: 201 walk-in, paid in store, the receipt mailed; the session is gone for everyone ' +
        'at once',
      async () => {
        const s = session();
        const date = w.day;
        // This process has answered availability for the w.day before the sale (cached answers).
        const before = (await w.call('GET', `/booking-slot/${w.sydney}/available-slots?date=${date}`, w.family)).json();
        expect(before.items.find((i: { id: string }) => i.id === s.id).status).toBe('available');
        const res = await w.call('POST', '/staff/walk-ins', w.elf, body(s.id, { email: 'ada@example.com' }));
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json()).toMatchObject({
          source: 'walkin',
          status: 'completed',
          attendance: 'confirmed',
          customer: { firstName: 'Ada', lastName: 'Walker', email: 'ada@example.com' },
          amountCents: 3995,
          details: FAMILY,
          actions: [{ action: 'walk_in', staffEmail: w.elf.email }],
        });
        const order = (
          await w.t.db.execute(
            sql`select status, paid_at, payment_intent_id from orders where booking_id = ${res.json().id}::uuid`,
          )
        ).rows;
        expect(order).toEqual([{ status: 'paid', paid_at: expect.anything(), payment_intent_id: null }]);
        const after = (await w.call('GET', `/booking-slot/${w.sydney}/available-slots?date=${date}`, w.family)).json();
        expect(after.items.find((i: { id: string }) => i.id === s.id).status).toBe('booked');
        expectContractError(
          await w.call('POST', '/bookings/reservation', w.family, { slotId: s.id }),
          409,
          'SLOT_UNAVAILABLE',
        );
        expectContractError(await w.call('POST', '/staff/walk-ins', w.elf, body(s.id)), 409, 'SLOT_UNAVAILABLE');
        const [mail] = await w.t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, 'ada@example.com'));
        expect(mail!.subject).toContain(res.json().reference);
        expect(mail!.attachments).toEqual([expect.objectContaining({ contentType: 'application/pdf' })]);
        expect(Buffer.from(mail!.attachments[0]!.content, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
        // Walk-ins get no reminder (the booking's account is the staff member's).
        const sheet = (await w.call('GET', `/staff/run-sheet?locationId=${w.sydney}`, w.elf)).json();
        expect(
          sheet.items.find((i: { booking: { id: string } | null }) => i.booking?.id === res.json().id).slot.state,
        ).toBe('booked');
      },
    );

    it('without an e-mail, no mail, and a tax invoice to print; the walk-in checks in like anyone', async () => {
      const before = (await w.t.db.select().from(mailOutbox)).length;
      const res = await w.call('POST', '/staff/walk-ins', w.elf, body(session().id));
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().customer.email).toBeNull();
      expect((await w.t.db.select().from(mailOutbox)).length).toBe(before);
      const receipt = await w.call('GET', `/staff/bookings/${res.json().id}/receipt`, w.elf);
      expect(receipt.statusCode).toBe(200);
      expect(receipt.headers['content-type']).toBe('application/pdf');
      expect(receipt.headers['content-disposition']).toMatch(
        new RegExp(`^attachment; filename="tax-invoice-${res.json().reference}-[0-9A-F]{6}\\.pdf"$`),
      );
      const text = (await new PDFParse({ data: receipt.rawPayload }).getText()).text;
      for (const words of [
        'Tax invoice',
        res.json().reference,
        'Ada Walker',
        '$39.95',
        'GST included',
        'Paid in store',
      ])
        expect(text).toContain(words);
      expect(text).not.toContain('Paid by card');
      expect(text).not.toMatch(/Ada Walker,\s*$/m);
      // Only staff, only a paid booking.
      expectContractError(await w.call('GET', `/staff/bookings/${res.json().id}/receipt`, w.family), 403, 'STAFF_ONLY');
      const unpaid = await bookDirect(w.t.db, w.family, session().id, { status: 'payment_pending' });
      expectContractError(await w.call('GET', `/staff/bookings/${unpaid.id}/receipt`, w.elf), 409, 'NOT_PAID');
      expectContractError(
        await w.call('GET', '/staff/bookings/00000000-0000-4000-8000-000000000000/receipt', w.elf),
        404,
        'NOT_FOUND',
      );
      expect(
        (
          await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney, reference: res.json().reference })
        ).json().attendance,
      ).toBe('checked_in');
    });

    it(
      'a session already running: sold checked in, in the same transaction, with the check-in recorded as POST ' +
        '/staff/check-ins records it',
      async () => {
        const s = session();
        w.clock.set(new Date(Date.parse(s.start_at) + 2 * 60_000));
        const res = await w.call('POST', '/staff/walk-ins', w.elf, body(s.id));
        expect(res.statusCode, res.body).toBe(201);
        const at = w.clock.now().toISOString();
        expect(res.json()).toMatchObject({
          attendance: 'checked_in',
          checkedInAt: at,
          actions: [
            { action: 'walk_in', staffEmail: w.elf.email, at },
            { action: 'check_in', staffEmail: w.elf.email, at },
          ],
        });
        // Tapping Check in afterwards is harmless, as for any checked-in family: one check-in, recorded once.
        w.clock.advance(5_000);
        const again = await w.call('POST', '/staff/check-ins', w.elf, {
          locationId: w.sydney,
          reference: res.json().reference,
        });
        expect(again.json()).toMatchObject({ attendance: 'checked_in', checkedInAt: at });
        expect(again.json().actions).toHaveLength(2);
        const sheet = (await w.call('GET', `/staff/run-sheet?locationId=${w.sydney}`, w.elf)).json();
        expect(
          sheet.items.find((i: { booking: { id: string } | null }) => i.booking?.id === res.json().id).booking
            .attendance,
        ).toBe('checked_in');
      },
    );

    it("a pet night's sessions say allowsPets on the run sheet, and a walk-in there may bring pets", async () => {
      const pet = (
        await w.t.db.execute(sql`
        select s.id, s.start_at from slots s join slot_types st on st.id = s.slot_type_id
        where s.location_id = ${w.sydney}::uuid and st.slug = 'pet-night' and s.start_at > now() + interval '1 day'
        order by s.start_at limit 1`)
      ).rows[0] as { id: string; start_at: string };
      // Half an hour before that night's first session: it has not started, so it is sold Confirmed.
      w.clock.set(new Date(Date.parse(pet.start_at) - 30 * 60_000));
      const sheet = (await w.call('GET', `/staff/run-sheet?locationId=${w.sydney}`, w.elf)).json();
      type Row = { slot: { id: string; kind: string; slotType: { slug: string; allowsPets: boolean } } };
      const sessions = sheet.items.filter((i: Row) => i.slot.kind === 'session');
      expect(sessions.find((i: Row) => i.slot.id === pet.id).slot.slotType).toMatchObject({
        slug: 'pet-night',
        allowsPets: true,
      });
      expect(
        sessions
          .filter((i: Row) => i.slot.slotType.slug === 'standard')
          .every((i: Row) => i.slot.slotType.allowsPets === false),
      ).toBe(true);
      const res = await w.call(
        'POST',
        '/staff/walk-ins',
        w.elf,
        body(pet.id, { details: { ...FAMILY_AS_SENT, pets: 1 } }),
      );
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json()).toMatchObject({
        attendance: 'confirmed',
        checkedInAt: null,
        details: { pets: 1 },
        actions: [{ action: 'walk_in' }],
      });
    });
  });
});
