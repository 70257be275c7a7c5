import { zonedToInstant } from '@kringle/contracts/dates';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { SYSTEM } from '../../src/modules/audit-trail/audit-entries.repository';
import { lockBooking } from '../../src/modules/booking-lifecycle/booking-rows.repository';
import { markNoShow } from '../../src/modules/booking-lifecycle/booking-change-transitions';
import { expectContractError } from '../security/security-fixtures';
import { bookDirect, createPerson, SYDNEY, staffDay, type Person, type StaffDay } from './staff-fixtures';

/** Issue 34's audit trail (decision 0051): one entry per change, in its transaction, never edited. */
describe('audit trail', () => {
  let w: StaffDay;
  let next = 0;
  const session = () => w.sessions[next++]!;
  let manager: Person;

  beforeAll(async () => {
    w = await staffDay();
    manager = await createPerson(
      w.t.db,
      true,
      { firstName: 'Mona', lastName: 'Manager' },
      { role: 'manager', mfaEnrolled: true },
    );
  });
  afterAll(async () => w?.t.close());
  beforeEach(() => w.clock.set(zonedToInstant(w.day, '09:45', SYDNEY)));

  /** Drizzle wraps the database's error; the trigger's words are in its cause. */
  const refused = (attempt: Promise<unknown>) =>
    expect(attempt).rejects.toSatisfy((e: Error & { cause?: Error }) =>
      /append-only|permission denied/.test(e.cause?.message ?? e.message),
    );
  const entriesOf = async (bookingId: string) =>
    (await w.t.db.execute(sql`select * from audit_entries where booking_id = ${bookingId}::uuid order by seq`)).rows;

  it('the database refuses UPDATE, DELETE and TRUNCATE of an entry', async () => {
    const booked = await bookDirect(w.t.db, w.family, session().id);
    await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney, reference: booked.reference });
    const [entry] = await entriesOf(booked.id);
    expect(entry).toMatchObject({
      action: 'checkIn',
      actor_kind: 'staff',
      actor_id: w.elf.id,
      actor_email: w.elf.email,
    });
    await refused(w.t.db.execute(sql`update audit_entries set action = 'nothing' where id = ${entry!.id}::uuid`));
    await refused(
      w.t.db.execute(
        sql`update audit_entries set reason = 'rewritten', actor_email = null where id = ${entry!.id}::uuid`,
      ),
    );
    await refused(w.t.db.execute(sql`delete from audit_entries where id = ${entry!.id}::uuid`));
    await refused(w.t.db.execute(sql`truncate audit_entries`));
    expect(await entriesOf(booked.id)).toHaveLength(1);
  });

  it("only erases an actor's e-mail (account deletion): the id stays", async () => {
    const booked = await bookDirect(w.t.db, w.family, session().id);
    await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney, reference: booked.reference });
    await w.t.db.execute(sql`update audit_entries set actor_email = null where booking_id = ${booked.id}::uuid`);
    expect(await entriesOf(booked.id)).toMatchObject([{ actor_id: w.elf.id, actor_email: null }]);
  });

  it('a transition whose transaction rolls back leaves no entry', async () => {
    w.clock.set(zonedToInstant(w.day, '18:00', SYDNEY));
    const booked = await bookDirect(w.t.db, w.family, session().id);
    await expect(
      w.t.db.transaction(async (tx) => {
        await markNoShow({ tx, now: w.clock.now(), log: w.t.app.log, actor: SYSTEM }, await lockBooking(tx, booked.id));
        expect(
          (await tx.execute(sql`select count(*)::int as n from audit_entries where booking_id = ${booked.id}::uuid`))
            .rows[0]!.n,
        ).toBe(1);
        throw new Error('rolled back after the move');
      }),
    ).rejects.toThrow('rolled back');
    expect(await entriesOf(booked.id)).toEqual([]);
    expect(
      (await w.t.db.execute(sql`select no_show_at from bookings where id = ${booked.id}::uuid`)).rows[0]!.no_show_at,
    ).toBeNull();
  });

  it('the family cancelling writes a family entry with the state before and after', async () => {
    const booked = await bookDirect(w.t.db, w.family, session().id);
    w.clock.set(zonedToInstant(w.day, '09:00', SYDNEY));
    expect((await w.call('POST', `/bookings/${booked.id}/cancel`, w.family)).statusCode).toBe(200);
    expect(await entriesOf(booked.id)).toMatchObject([
      {
        action: 'cancel',
        actor_kind: 'family',
        actor_id: w.family.id,
        actor_email: w.family.email,
        before: { state: 'confirmed', status: 'completed' },
        after: { state: 'cancelled', status: 'cancelled' },
      },
    ]);
  });

  it('lists per booking, per staff member and per day, a page at a time, and as CSV safe from formulas', async () => {
    const booked = await bookDirect(w.t.db, w.family, session().id);
    await w.call('POST', '/staff/check-ins', w.elf, { locationId: w.sydney, reference: booked.reference });
    const support = await createPerson(w.t.db, true, undefined, { role: 'support', mfaEnrolled: true });
    const orderId = (await w.t.db.execute(sql`select id from orders where booking_id = ${booked.id}::uuid`)).rows[0]!
      .id as string;
    expect(
      (
        await w.call('POST', `/staff/orders/${orderId}/refunds`, support, {
          amountCents: 500,
          reason: '=HYPERLINK("evil")',
        })
      ).statusCode,
    ).toBe(201);

    const byBooking = (await w.call('GET', `/staff/audit?bookingId=${booked.id}`, manager)).json();
    expect(byBooking).toMatchObject({
      items: [
        { action: 'checkIn', actor: { kind: 'staff', id: w.elf.id } },
        { action: 'refundPart', reason: '=HYPERLINK("evil")' },
      ],
      nextCursor: null,
    });
    const byActor = (await w.call('GET', `/staff/audit?actorId=${support.id}`, manager)).json();
    expect(byActor.items.map((e: { bookingId: string }) => e.bookingId)).toEqual([booked.id]);
    const today = w.clock.now().toISOString().slice(0, 10);
    const byDay = (await w.call('GET', `/staff/audit?from=${today}&to=${today}`, manager)).json();
    expect(byDay.items.length).toBeGreaterThanOrEqual(2);
    expect((await w.call('GET', '/staff/audit?from=2020-01-01&to=2020-01-01', manager)).json()).toEqual({
      items: [],
      nextCursor: null,
    });
    expectContractError(
      await w.call('GET', '/staff/audit?from=2026-12-02&to=2026-12-01', manager),
      400,
      'VALIDATION_FAILED',
    );
    expectContractError(await w.call('GET', '/staff/audit?cursor=nonsense', manager), 400, 'VALIDATION_FAILED');

    const csv = await w.call('GET', `/staff/audit.csv?bookingId=${booked.id}`, manager);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]).toContain(`"'=HYPERLINK(""evil"")"`);
  });

  it('pages with nextCursor', async () => {
    const booked = await bookDirect(w.t.db, w.family, session().id);
    for (let i = 0; i < 105; i++) {
      await w.t.db.execute(
        sql`insert into audit_entries (actor_kind, action, booking_id) values ('system', 'expireHold',
${booked.id}::uuid)`,
      );
    }
    const first = (await w.call('GET', `/staff/audit?bookingId=${booked.id}`, manager)).json();
    expect(first.items).toHaveLength(100);
    const second = (
      await w.call('GET', `/staff/audit?bookingId=${booked.id}&cursor=${first.nextCursor}`, manager)
    ).json();
    expect(second.items).toHaveLength(5);
    expect(second.nextCursor).toBeNull();
    expect(new Set([...first.items, ...second.items].map((e: { id: string }) => e.id)).size).toBe(105);
  });
});
