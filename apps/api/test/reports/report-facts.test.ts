import { addDays, zonedToInstant } from '@kringle/contracts/dates';
import type { SalesReport } from '@kringle/contracts/reports';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bookDirect,
  createPerson,
  FAMILY_AS_SENT,
  SYDNEY,
  staffDay,
  type Person,
  type StaffDay,
} from '../staff/staff-fixtures';
import { orders } from '../../src/db/schema/bookings';
import { sell, settleRefunds } from './report-fixtures';

/**
 * The reports' facts tables (migration 0029, decision 0066) equal their views, i.e. the figures
 * computed from the orders, refunds, bookings, sessions and locations themselves, after every kind
 * of change the app makes, and when two transactions change the same order at once.
 */
describe('report facts', () => {
  let w: StaffDay;
  let manager: Person;
  let support: Person;
  const reason = 'Family phoned: photos were late';

  /** Rows in one and not the other, both ways, per table; and how many rows the table has. */
  const drift = async () =>
    (
      await w.t.db.execute(sql`
      select 'sale' as facts, (select count(*) from sale_facts)::int as rows,
        (select count(*) from ((select * from sale_facts except all select * from sale_facts_live)
          union all (select * from sale_facts_live except all select * from sale_facts)) d)::int as differ
      union all
      select 'session', (select count(*) from session_facts)::int,
        (select count(*) from ((select * from session_facts except all select * from session_facts_live)
          union all (select * from session_facts_live except all select * from session_facts)) d)::int`)
    ).rows as { facts: string; rows: number; differ: number }[];
  const expectInStep = async () => {
    const d = await drift();
    expect(d.map((r) => [r.facts, r.differ])).toEqual([
      ['sale', 0],
      ['session', 0],
    ]);
    return d;
  };
  const sales = async (from: string, to: string) => {
    const res = await w.call('GET', `/staff/reports/sales?from=${from}&to=${to}`, manager);
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as SalesReport).totals;
  };

  beforeAll(async () => {
    w = await staffDay();
    manager = await createPerson(
      w.t.db,
      true,
      { firstName: 'Mo', lastName: 'Manager' },
      { role: 'manager', mfaEnrolled: true },
    );
    support = await createPerson(
      w.t.db,
      true,
      { firstName: 'Sam', lastName: 'Support' },
      { role: 'support', mfaEnrolled: true },
    );
    w.clock.set(zonedToInstant(w.day, '09:45', SYDNEY));
  });
  afterAll(async () => w?.t.close());

  it(
    'stay equal to their views through sales, walk-ins, refunds days later, cancellations, moves, check-ins, ' +
      'closures and a zone change',
    async () => {
      const paidDay = addDays(w.day, -1);
      const owners = [
        await createPerson(w.t.db, false),
        await createPerson(w.t.db, false),
        await createPerson(w.t.db, false),
      ];
      const sold = [];
      for (const [i, owner] of owners.entries()) {
        sold.push(
          await sell(w, owner, w.sessions[i]!.id, {
            amountCents: 3995 + i * 1000,
            paidAt: zonedToInstant(paidDay, '11:00', SYDNEY),
            packageNames: ['Classic Print'],
          }),
        );
      }
      const walkIn = await w.call('POST', '/staff/walk-ins', w.elf, {
        slotId: w.sessions[5]!.id,
        firstName: 'Ada',
        lastName: 'Walker',
        details: FAMILY_AS_SENT,
        packages: [{ id: w.classic, quantity: 1 }],
        addOns: [],
        paidWith: 'card',
      });
      expect(walkIn.statusCode, walkIn.body).toBe(201);
      const before = await sales(paidDay, paidDay);
      const [sale, session] = await expectInStep();
      expect(sale!.rows).toBe(4);
      expect(session!.rows).toBeGreaterThan(100);

      // A refund three days after the sale counts against the day it was paid, once it succeeds.
      w.clock.set(zonedToInstant(addDays(w.day, 2), '09:00', SYDNEY));
      expect(
        (await w.call('POST', `/staff/orders/${sold[0]!.orderId}/refunds`, support, { amountCents: 1000, reason }))
          .statusCode,
      ).toBe(201);
      await expectInStep();
      expect((await sales(paidDay, paidDay)).refundsCents).toBe(before.refundsCents);
      await settleRefunds(w, sold[0]!.id);
      await expectInStep();
      expect((await sales(paidDay, paidDay)).refundsCents).toBe(before.refundsCents + 1000);

      // A cancellation with a full refund, settled.
      w.clock.set(zonedToInstant(w.day, '09:45', SYDNEY));
      expect(
        (await w.call('POST', `/staff/bookings/${sold[1]!.id}/cancel`, support, { reason, refund: 'full' })).statusCode,
      ).toBe(200);
      await settleRefunds(w, sold[1]!.id);
      // A move to another session, a check-in and a no-show.
      const moved = await w.call('POST', `/staff/bookings/${sold[2]!.id}/reschedule`, support, {
        slotId: w.sessions[20]!.id,
        reason,
      });
      expect(moved.statusCode, moved.body).toBe(200);
      const today = await bookDirect(w.t.db, await createPerson(w.t.db, false), w.sessions[21]!.id);
      const other = await bookDirect(w.t.db, await createPerson(w.t.db, false), w.sessions[22]!.id);
      w.clock.set(zonedToInstant(w.day, '17:00', SYDNEY));
      expect(
        (await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney, reference: today.reference }))
          .statusCode,
      ).toBe(200);
      expect((await w.call('POST', `/staff/bookings/${other.id}/no-show`, w.elf)).statusCode).toBe(200);
      // Sessions taken out of sale, a booking moved to another location (as a closure's move does).
      await w.t.db.execute(
        sql`update slots set blocked = true where id =
any(${sql.param([w.sessions[30]!.id, w.sessions[31]!.id])}::uuid[])`,
      );
      await w.t.db.execute(sql`update bookings set location_id = ${w.brisbane}::uuid where id = ${sold[0]!.id}::uuid`);
      const [after] = await expectInStep();
      expect(after!.rows).toBe(6);
      expect(
        (await w.t.db.execute(sql`select count(*)::int as n from session_facts where checked_in or no_show`)).rows[0]!
          .n,
      ).toBe(2);

      // A location's zone changes every local day there.
      await w.t.db.execute(sql`update locations set timezone = 'Pacific/Auckland' where id = ${w.sydney}::uuid`);
      await expectInStep();
      await w.t.db.execute(sql`update locations set timezone = ${SYDNEY} where id = ${w.sydney}::uuid`);
      await expectInStep();
    },
  );

  it(
    "count a photo order (issue 39) as a sale of its booking's day and location, under its photo line, but not as " +
      'another booking',
    async () => {
      const day = addDays(w.day, -3);
      const paidAt = zonedToInstant(day, '12:00', SYDNEY);
      const owner = await createPerson(w.t.db, false);
      const before = await sales(day, day);
      const booked = await sell(w, owner, w.sessions[10]!.id, {
        amountCents: 4995,
        paidAt,
        packageNames: ['Classic Print'],
      });
      const line = {
        id: crypto.randomUUID(),
        type: 'photo' as const,
        name: 'Extra digital photo',
        quantity: 2,
        unitPriceCents: 900,
        totalCents: 1800,
      };
      await w.t.db.insert(orders).values({
        bookingId: booked.id,
        userId: owner.id,
        status: 'paid',
        items: [line],
        amountCents: 1800,
        paidAt,
        kind: 'photos',
        photoIds: [],
      });
      await expectInStep();
      expect(await sales(day, day)).toMatchObject({
        bookings: before.bookings + 1,
        grossCents: before.grossCents + 4995 + 1800,
      });
      const byPackage = await w.call('GET', `/staff/reports/sales?from=${day}&to=${day}&groupBy=package`, manager);
      expect((byPackage.json() as SalesReport).items).toContainEqual(
        expect.objectContaining({ key: 'Extra digital photo', bookings: 0, grossCents: 1800 }),
      );
    },
  );

  it(
    'stay equal when two transactions change the same order at once (a refund settles while its booking ' + 'moves)',
    async () => {
      const owner = await createPerson(w.t.db, false);
      const s = await sell(w, owner, w.sessions[25]!.id, {
        amountCents: 5490,
        paidAt: zonedToInstant(w.day, '08:00', SYDNEY),
        packageNames: ['Deluxe Sleigh'],
      });
      const refund = (
        await w.t.db.execute(
          sql`insert into refunds (order_id, booking_id, amount_cents, reason) values
(${s.orderId}::uuid, ${s.id}::uuid, 700, 'test') returning id`,
        )
      ).rows[0]!.id as string;
      for (const early of ['refund', 'move'] as const) {
        const [move, settle] = [await w.t.pool.connect(), await w.t.pool.connect()];
        try {
          await move.query('begin');
          await settle.query('begin');
          await move.query(`update bookings set location_id = $1 where id = $2`, [
            early === 'refund' ? w.brisbane : w.sydney,
            s.id,
          ]);
          await settle.query(
            `update refunds set status = case when status = 'succeeded' then 'pending' else 'succeeded' end where id ` +
              `= ` +
              `$1`,
            [refund],
          );
          // One refreshes the order's row now (its triggers fire at once) and stays open; the other
          // commits meanwhile, so its refresh runs while the first has neither committed nor let go.
          const [first, second] = early === 'refund' ? [settle, move] : [move, settle];
          await first.query('set constraints all immediate');
          const secondCommits = second.query('commit');
          await new Promise((resolve) => setTimeout(resolve, 200));
          await first.query('commit');
          await secondCommits;
        } finally {
          move.release();
          settle.release();
        }
        await expectInStep();
      }
      const fact = (
        await w.t.db.execute(sql`select location_id, refunds_cents from sale_facts where order_id = ${s.orderId}::uuid`)
      ).rows[0]!;
      expect(fact).toEqual({ location_id: w.sydney, refunds_cents: 0 });
    },
  );
});
