import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { expectContractError } from '../security/security-fixtures';
import { bookDirect, FAMILY_AS_SENT } from './staff-fixtures';
import { walkIns } from './walk-in-fixture';

/** Issue 19's walk-ins and CSV export (API.md "Staff"): how a walk-in was paid, the day's totals, and the CSV. */
describe('staff app API: walk-ins and CSV', () => {
  const { w, session, body } = walkIns();

  describe('walk-ins', () => {
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
