import { addDays, zonedToInstant } from '@kringle/contracts/dates';
import { eq, sql } from 'drizzle-orm';
import { PDFParse } from 'pdf-parse';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { mailOutbox } from '../../src/db/schema/mail';
import { expectContractError } from '../security/security-fixtures';
import { bookDirect, createPerson, FAMILY, FAMILY_AS_SENT, staffDay, SYDNEY, type StaffDay } from './staff-fixtures';

/** Issue 19's walk-ins and CSV export (API.md "Staff") against real PostgreSQL on a day of the demo season. */
describe('staff app API: walk-ins and CSV', () => {
  let w: StaffDay;
  // Past the online lead time from 9:45 am, so the availability answers show them as on sale.
  let next = 10;
  const session = () => w.sessions[next++]!;

  beforeAll(async () => {
    w = await staffDay();
  });
  afterAll(async () => w?.t.close());
  // The day, 9:45 am in Sydney: before the first session.
  beforeEach(() => w.clock.set(zonedToInstant(w.day, '09:45', SYDNEY)));

  describe('walk-ins', () => {
    const body = (slotId: string, extra: object = {}) => ({
      slotId,
      firstName: 'Ada',
      lastName: 'Walker',
      details: FAMILY_AS_SENT,
      packages: [{ id: w.classic, quantity: 1 }],
      addOns: [],
      paidWith: 'eftpos',
      ...extra,
    });

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

    it(
      'records how the family paid (paidWith, required); the run sheet counts and the CSV total each way apart, ' +
        'cancelled walk-ins left out',
      async () => {
        const missing = await w.call('POST', '/staff/walk-ins', w.elf, { ...body(session().id), paidWith: undefined });
        expectContractError(missing, 400, 'VALIDATION_FAILED');
        expect(missing.json().details).toEqual([
          { path: 'body.paidWith', message: 'Choose how the family paid: cash, card or EFTPOS.' },
        ]);
        expectContractError(
          await w.call('POST', '/staff/walk-ins', w.elf, body(session().id, { paidWith: 'cheque' })),
          400,
          'VALIDATION_FAILED',
        );
        const before = (await w.call('GET', `/staff/run-sheet?locationId=${w.sydney}`, w.elf)).json().counts.paidWith;
        const sold: Record<string, { id: string; paidWith: string; amountCents: number }> = {};
        for (const paidWith of ['cash', 'card', 'card']) {
          const res = await w.call('POST', '/staff/walk-ins', w.elf, body(session().id, { paidWith }));
          expect(res.statusCode, res.body).toBe(201);
          expect(res.json().paidWith).toBe(paidWith);
          sold[`${paidWith}-${Object.keys(sold).length}`] = res.json();
        }
        const sheet = (await w.call('GET', `/staff/run-sheet?locationId=${w.sydney}`, w.elf)).json();
        const plus = (m: 'cash' | 'card' | 'eftpos', n: number) => ({
          bookings: before[m].bookings + n,
          amountCents: before[m].amountCents + n * 3995,
        });
        expect(sheet.counts.paidWith).toEqual({
          cash: plus('cash', 1),
          card: plus('card', 2),
          eftpos: plus('eftpos', 0),
        });
        // An online booking has no way of paying at the set.
        const online = await bookDirect(w.t.db, w.family, session().id);
        expect(
          sheet.items.find((i: { booking: { id: string } | null }) => i.booking?.id === sold['cash-0']!.id).booking
            .paidWith,
        ).toBe('cash');
        const after = (await w.call('GET', `/staff/run-sheet?locationId=${w.sydney}`, w.elf)).json();
        expect(
          after.items.find((i: { booking: { id: string } | null }) => i.booking?.id === online.id).booking.paidWith,
        ).toBeNull();
        expect(after.counts.paidWith).toEqual(sheet.counts.paidWith);
        // A cancelled walk-in is no longer money in the till.
        await w.t.db.execute(
          sql`update bookings set status = 'cancelled', cancelled_at = now() where id = ${sold['card-1']!.id}::uuid`,
        );
        const csv = (await w.call('GET', `/staff/run-sheet.csv?locationId=${w.sydney}&date=${w.day}`, w.elf)).body
          .replace(/^\uFEFF/, '')
          .split('\r\n');
        const header = csv[0]!.split(',');
        expect(header.slice(-5)).toEqual(['"Amount (AUD)"', '"Paid with"', '"Source"', '"Status"', '"Checked in"']);
        const cashItem = sheet.items.find(
          (i: { booking: { id: string } | null }) => i.booking?.id === sold['cash-0']!.id,
        );
        const cashRow = csv.find((l) => l.includes(`"${cashItem.booking.reference}"`))!;
        expect(cashRow).toContain('"39.95","Cash","Walk-in"');
        const totals = csv.filter((l) => l.includes('"Total"'));
        const dollars = (cents: number) => (cents / 100).toFixed(2);
        expect(totals).toEqual([
          expect.stringMatching(
            new RegExp(
              `^"${w.day}","Kringle [^"]+","","","Total",.*"${before.cash.bookings + 1} walk-ins?","` +
                `${dollars(before.cash.amountCents + 3995)}","Cash","Walk-in","",""$`,
            ),
          ),
          expect.stringMatching(
            new RegExp(
              `"${before.card.bookings + 1} walk-ins?","` +
                `${dollars(before.card.amountCents + 3995)}","Card","Walk-in","",""$`,
            ),
          ),
          expect.stringMatching(
            new RegExp(
              `"${before.eftpos.bookings} walk-ins?","${dollars(before.eftpos.amountCents)}","EFTPOS","Walk-in","",""$`,
            ),
          ),
        ]);
      },
    );

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

  describe('CSV export', () => {
    it('text/csv, a row per booking and per free session, every cell quoted, formulas defused', async () => {
      const s = session();
      const naughty = {
        ...FAMILY_AS_SENT,
        noteForSanta: '=HYPERLINK("http://evil.example","click")',
        accessNote: '+61 400 000 000',
        children: [{ firstName: '@Mia', age: 6 }],
      };
      const b = await bookDirect(w.t.db, w.family, s.id, { details: naughty });
      const res = await w.call('GET', `/staff/run-sheet.csv?locationId=${w.sydney}&date=${w.day}`, w.elf);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="run-sheet-sydney-pitt-street-${w.day}.csv"`,
      );
      const lines = res.body.replace(/^\uFEFF/, '').split('\r\n');
      expect(lines[0]).toMatch(/^"Date","Location","Start","End","Session","Reference","Family"/);
      const row = lines.find((l) => l.includes(b.reference))!;
      expect(row).toMatch(new RegExp(`^"${w.day}","Kringle [^"]+","\\d{1,2}:\\d\\d (am|pm)"`));
      // A session nobody booked says what it is, as the run sheet does.
      expect(lines.some((l) => /,"(Free|Closed|Being booked online)",""$/.test(l))).toBe(true);
      expect(row).toContain('"\'=HYPERLINK(""http://evil.example"",""click"")"');
      expect(row).toContain('"\'+61 400 000 000"');
      expect(row).toContain('"\'@Mia (6)"');
      expect(row).toContain('"Olive Ng"');
      expect(lines.filter((l) => l.includes('"Break"')).length).toBeGreaterThan(0);
      expectContractError(
        await w.call('GET', `/staff/run-sheet.csv?locationId=${w.sydney}`, w.family),
        403,
        'STAFF_ONLY',
      );
    });
  });
});
