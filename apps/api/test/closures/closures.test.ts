import { sql } from 'drizzle-orm';
import { zonedToInstant } from '@kringle/contracts/dates';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { closuresPass } from '../../src/jobs/closures.job';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { expectContractError } from '../security/security-fixtures';
import { createPerson, headersOf, SYDNEY, type Person } from '../staff/staff-fixtures';
import { closureWorld, countRows, paidBooking, rangeOf, refundedAtStripe, type ClosureWorld } from './closure-fixtures';

/** Issue 35's closures, the refund remedy (decision 0055): dry run, confirm, idempotency, exactly-once refunds. */
describe('closures: dry run and the refund remedy', () => {
  let c: ClosureWorld;
  const local = (at: string) =>
    new Intl.DateTimeFormat('en-GB', { timeZone: SYDNEY, hour: '2-digit', minute: '2-digit', hourCycle: 'h23' }).format(
      new Date(at),
    );
  /** A range covering sessions [i, j) of the staff day. */
  const range = (i: number, j: number) =>
    rangeOf(c, local(c.w.sessions[i]!.start_at), local(c.w.sessions[j]!.start_at));
  const post = async (url: string, who: Person, payload: object, key?: string) =>
    c.w.t.app.inject({
      method: 'POST',
      url: `/api/v1${url}`,
      headers: { ...(await headersOf(c.w.t.app.idTokens, who)), ...(key ? { 'idempotency-key': key } : {}) },
      payload,
    });
  const closureCount = () => countRows(c, sql`select count(*) as n from closures`);
  const blockedCount = () => countRows(c, sql`select count(*) as n from slots where blocked`);

  beforeAll(async () => {
    c = await closureWorld();
  });
  afterAll(async () => c?.close());
  beforeEach(() => c.w.clock.set(zonedToInstant(c.w.day, '09:45', SYDNEY)));

  it('the dry run lists sessions, bookings, money and free sessions nearby, and changes nothing', async () => {
    const a = await paidBooking(c, c.w.sessions[0]!.id);
    const b = await paidBooking(c, c.w.sessions[1]!.id);
    const res = await post('/staff/closures/preview', c.manager, range(0, 3));
    expect(res.statusCode, res.body).toBe(200);
    const preview = res.json();
    const ids = preview.sessions.map((s: { slotId: string }) => s.slotId);
    expect(ids).toEqual(expect.arrayContaining(c.w.sessions.slice(0, 3).map((s) => s.id)));
    expect(preview.bookings).toEqual([
      { bookingId: a.id, reference: a.reference, status: 'completed', paidCents: 3995 },
      { bookingId: b.id, reference: b.reference, status: 'completed', paidCents: 3995 },
    ]);
    expect(preview.refundTotalCents).toBe(7990);
    expect(preview.alternatives.length).toBeGreaterThan(0);
    expect(preview.alternatives.some((f: { slotId: string }) => ids.includes(f.slotId))).toBe(false);
    expect(await closureCount()).toBe(0);
    expect(await blockedCount()).toBe(0);
    expect(await countRows(c, sql`select count(*) as n from bookings where status = 'completed'`)).toBe(2);
    // Cancelled again for the next tests: they start from free sessions.
    await c.w.t.db.execute(sql`update slots set booking_id = null; update bookings set status = 'cancelled'`);
  });

  it('refuses a wrong confirm, a range the wrong way round and other roles, changing nothing', async () => {
    const body = { ...range(0, 2), remedy: 'refund', message: '' };
    expectContractError(
      await post('/staff/closures', c.manager, { ...body, confirm: c.sydneyName.toLowerCase() }),
      400,
      'CLOSURE_NOT_CONFIRMED',
    );
    expectContractError(await post('/staff/closures', c.manager, body), 400, 'VALIDATION_FAILED');
    expectContractError(
      await post('/staff/closures', c.manager, { ...body, from: body.to, to: body.from, confirm: c.sydneyName }),
      400,
      'VALIDATION_FAILED',
    );
    const support = await createPerson(c.w.t.db, true, undefined, { role: 'support', mfaEnrolled: true });
    expectContractError(
      await post('/staff/closures', support, { ...body, confirm: c.sydneyName }),
      403,
      'ROLE_FORBIDDEN',
    );
    expect(await closureCount()).toBe(0);
    expect(await blockedCount()).toBe(0);
  });

  it(
    'closes at once, ends live holds, answers the same closure for the same key, and refunds each booking once ' +
      'however often the job runs',
    async () => {
      const a = await paidBooking(c, c.w.sessions[3]!.id);
      const b = await paidBooking(c, c.w.sessions[4]!.id);
      const holder = await createPerson(c.w.t.db, false);
      const hold = await post('/bookings/reservation', holder, { slotId: c.w.sessions[5]!.id });
      expect(hold.statusCode, hold.body).toBe(201);
      const body = {
        ...range(3, 6),
        slotTypeId: undefined,
        remedy: 'refund',
        message: 'We will be back tomorrow.',
        confirm: ` ${c.sydneyName} `,
      };
      const first = await post('/staff/closures', c.manager, body, 'close-3-6');
      expect(first.statusCode, first.body).toBe(202);
      const again = await post('/staff/closures', c.manager, body, 'close-3-6');
      expect(again.statusCode).toBe(202);
      expect(again.json().id).toBe(first.json().id);
      expect(await closureCount()).toBe(1);
      const id = first.json().id as string;

      // Closed at once: not bookable, the live hold ended.
      for (const s of c.w.sessions.slice(3, 6))
        expect((await c.w.t.db.execute(sql`select blocked from slots where id = ${s.id}::uuid`)).rows[0]!.blocked).toBe(
          true,
        );
      expect(
        (await c.w.t.db.execute(sql`select status from reservations where id = ${hold.json().id}::uuid`)).rows[0]!
          .status,
      ).toBe('cancelled');
      const other = await createPerson(c.w.t.db, false);
      expectContractError(
        await post('/bookings/reservation', other, { slotId: c.w.sessions[5]!.id }),
        409,
        'SLOT_UNAVAILABLE',
      );
      expect((await c.w.call('GET', `/staff/closures/${id}`, c.manager)).json()).toMatchObject({
        status: 'running',
        total: 2,
        done: 0,
      });

      // Two workers at once, then a third pass: each booking refunded exactly once.
      const pass = closuresPass(c.w.t.app);
      await Promise.all([pass(), pass()]);
      await pass();
      const view = (await c.w.call('GET', `/staff/closures/${id}`, c.manager)).json();
      expect(view).toMatchObject({ status: 'done', total: 2, done: 2, sessions: 3 });
      expect(view.outcomes.map((o: { bookingId: string; outcome: string }) => [o.bookingId, o.outcome])).toEqual([
        [a.id, 'refunded'],
        [b.id, 'refunded'],
      ]);
      for (const booked of [a, b]) {
        const refunds = (
          await c.w.t.db.execute(sql`select amount_cents, status from refunds where booking_id = ${booked.id}::uuid`)
        ).rows;
        expect(refunds).toEqual([{ amount_cents: 3995, status: 'succeeded' }]);
        expect(refundedAtStripe(c, booked.intentId)).toBe(3995);
        const booking = (await c.w.call('GET', `/bookings/${booked.id}`, booked.family)).json();
        expect(booking).toMatchObject({ status: 'cancelled', closure: { reason: 'Santa is unwell', offer: null } });
        const mails = (
          await c.w.t.db.execute(sql`select subject, text from mail_outbox where to_address = ${booked.family.email}`)
        ).rows as { subject: string; text: string }[];
        expect(mails).toHaveLength(1);
        expect(mails[0]!.subject).toBe(`Cancelled by us: ${booked.reference}, $39.95 refunded`);
        expect(mails[0]!.text).toContain('We will be back tomorrow.');
        const audit = (
          await c.w.t.db.execute(
            sql`select action, actor_id, reason from audit_entries where booking_id = ${booked.id}::uuid order by seq`,
          )
        ).rows;
        // The session closed, the booking cancelled, the refund sent (decision 0062): each once.
        expect(audit).toEqual([
          { action: 'closeSession', actor_id: c.manager.id, reason: 'Santa is unwell' },
          { action: 'closureCancel', actor_id: c.manager.id, reason: 'Santa is unwell' },
          { action: 'settleRefund', actor_id: null, reason: null },
        ]);
      }
      // Reloading the season (the operators' CLI, the editor) keeps them closed.
      await loadSeason(c.w.t.db, demoSeason(c.w.clock.now(), { days: 14 }), c.w.clock.now());
      expect(
        await countRows(
          c,
          sql`select count(*) as n from slots where blocked and id in (${sql.join(
            c.w.sessions.slice(3, 6).map((s) => sql`${s.id}::uuid`),
            sql`, `,
          )})`,
        ),
      ).toBe(3);
      const csv = await c.w.call('GET', `/staff/closures/${id}.csv`, c.manager);
      expect(csv.statusCode, csv.body).toBe(200);
      expect(csv.headers['content-type']).toMatch(/^text\/csv/);
      expect(csv.body).toContain(`"${a.id}","${a.reference}","Refunded"`);
    },
  );

  it('tells the families waiting for a closed day, and ends their place when no session of it is left', async () => {
    const waiting = await createPerson(c.w.t.db, false);
    const type = (await c.w.t.db.execute(sql`select slot_type_id from slots where id = ${c.w.sessions[0]!.id}::uuid`))
      .rows[0]!.slot_type_id as string;
    await c.w.t.db.execute(
      sql`insert into waitlist_entries (user_id, location_id, slot_type_id, date) values
(${waiting.id}::uuid, ${c.w.sydney}::uuid, ${type}::uuid, ${c.w.day}::date)`,
    );
    const res = await post('/staff/closures', c.manager, {
      ...rangeOf(c, '00:00', '23:59'),
      slotTypeId: type,
      remedy: 'refund',
      message: '',
      confirm: c.sydneyName,
    });
    expect(res.statusCode, res.body).toBe(202);
    expect(
      (await c.w.t.db.execute(sql`select status from waitlist_entries where user_id = ${waiting.id}::uuid`)).rows[0]!
        .status,
    ).toBe('ended');
    const mails = (await c.w.t.db.execute(sql`select subject from mail_outbox where to_address = ${waiting.email}`))
      .rows;
    expect(mails).toEqual([{ subject: `Sessions closed at ${c.sydneyName} on ${c.w.day}` }]);
  });

  it("answers 404 for an unknown closure and refuses other locations' managers", async () => {
    expectContractError(
      await c.w.call('GET', '/staff/closures/00000000-0000-4000-8000-000000000000', c.manager),
      404,
      'NOT_FOUND',
    );
    const elsewhere = await createPerson(c.w.t.db, true, undefined, {
      role: 'manager',
      mfaEnrolled: true,
      locationIds: [c.w.brisbane],
    });
    expectContractError(await post('/staff/closures/preview', elsewhere, range(0, 1)), 403, 'LOCATION_FORBIDDEN');
  });
});
