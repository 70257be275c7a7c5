import { zonedToInstant } from '@kringle/contracts/dates';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { familyActor } from '../../src/modules/audit-trail/audit-entries.repository';
import { batchHold } from '../../src/modules/sessions/hold-statements.repository';
import { claimSlot } from '../../src/modules/sessions/holds.repository';
import { closeSessions, expireLapsedHolds } from '../../src/modules/sessions/system-holds.repository';
import { handOffSlot, settleOffers } from '../../src/modules/waitlist/waitlist.hand-off';
import { leaveWaitlist } from '../../src/modules/waitlist/waitlist.service';
import { bookDirect, createPerson, SYDNEY, staffDay, type Person, type StaffDay } from './staff-fixtures';
import { holdArgs } from '../helpers/hold-args';

/**
 * Decision 0062: every change of a session's state (holds, waitlist offers, closures) writes exactly one audit entry,
 * in the statement or transaction of the change; what changes nothing, or is refused or rolled back, writes none.
 * Refunds, season saves and the table itself: audit-coverage-refunds-season.test.ts.
 */
describe('audit trail covers holds, waitlist offers, closures, refunds and season saves', () => {
  let w: StaffDay;
  let next = 0;
  const session = () => w.sessions[next++]!;

  beforeAll(async () => {
    w = await staffDay();
  });
  afterAll(async () => w?.t.close());
  // The day before the sessions: far enough ahead for a family to hold them.
  const dayBefore = () => new Date(zonedToInstant(w.day, '09:45', SYDNEY).getTime() - 24 * 60 * 60_000);
  beforeEach(() => w.clock.set(dayBefore()));

  const entriesAbout = async (where: { slotId?: string; bookingId?: string; seasonVersion?: number }) =>
    (
      await w.t.db.execute(sql`
        select action, actor_kind, actor_id, actor_email, booking_id, slot_id, season_version, order_id, reason,
        before, after from audit_entries
        where ${
          where.slotId
            ? sql`slot_id = ${where.slotId}::uuid`
            : where.bookingId
              ? sql`booking_id =
        ${where.bookingId}::uuid`
              : sql`season_version = ${where.seasonVersion!}`
        }
        order by seq`)
    ).rows;
  const actions = async (where: Parameters<typeof entriesAbout>[0]) => (await entriesAbout(where)).map((e) => e.action);
  const hold = async (who: Person, slotId: string) => w.call('POST', '/bookings/reservation', who, { slotId });

  it('a hold taken, refused, refreshed and let go: one entry per change, none for a refusal', async () => {
    const slot = session().id;
    const held = await hold(w.family, slot);
    expect(held.statusCode).toBe(201);
    const id = held.json().id as string;
    expect(await entriesAbout({ slotId: slot })).toMatchObject([
      {
        action: 'takeHold',
        actor_kind: 'family',
        actor_id: w.family.id,
        actor_email: w.family.email,
        booking_id: null,
        before: { state: 'free' },
        after: { state: 'held', reservationId: id },
      },
    ]);
    // Another family asking for it is refused: the session did not change, so no entry.
    const other = await createPerson(w.t.db, false);
    expect((await hold(other, slot)).statusCode).toBe(409);
    expect((await w.call('POST', `/bookings/reservation/${id}/refresh`, w.family)).statusCode).toBe(200);
    expect((await w.call('POST', `/bookings/reservation/${id}/cancel`, w.family)).statusCode).toBe(200);
    // Letting go twice changes nothing the second time.
    expect((await w.call('POST', `/bookings/reservation/${id}/cancel`, w.family)).statusCode).toBe(200);
    expect(await actions({ slotId: slot })).toEqual(['takeHold', 'refreshHold', 'releaseHold']);
    const [, refreshed, released] = await entriesAbout({ slotId: slot });
    expect(refreshed).toMatchObject({ before: { state: 'held' }, after: { state: 'held' } });
    const until = (side: unknown) => Date.parse((side as { holdExpiresAt: string }).holdExpiresAt);
    expect(until(refreshed!.after)).toBeGreaterThanOrEqual(until(refreshed!.before));
    expect(released).toMatchObject({
      actor_kind: 'family',
      before: { state: 'held', reservationId: id },
      after: { state: 'free' },
    });
  });

  it('a hold that runs out is expired once, by Kringle', async () => {
    const slot = session().id;
    const family = await createPerson(w.t.db, false);
    expect((await hold(family, slot)).statusCode).toBe(201);
    w.clock.advance(60 * 60_000);
    expect(await expireLapsedHolds(w.t.db, w.clock.now())).toBe(1);
    expect(await expireLapsedHolds(w.t.db, w.clock.now())).toBe(0);
    expect(await entriesAbout({ slotId: slot })).toMatchObject([
      { action: 'takeHold' },
      { action: 'expireHold', actor_kind: 'system', actor_id: null, after: { state: 'free' } },
    ]);
  });

  it(
    "the drop day's batch statement writes one entry per session it holds, and none for the one it " + 'refuses',
    async () => {
      const [a, b] = [session().id, session().id];
      const [x, y, z] = [
        await createPerson(w.t.db, false),
        await createPerson(w.t.db, false),
        await createPerson(w.t.db, false),
      ];
      const now = w.clock.now();
      const args = (userId: string, slotId: string) => holdArgs(userId, slotId, now);
      const first = await batchHold(w.t.app.pool, [args(x.id, a), args(y.id, b)]);
      expect(first.map((o) => o.held)).toEqual([true, true]);
      const second = await batchHold(w.t.app.pool, [args(z.id, a)]);
      expect(second[0]!.held).toBe(false);
      expect(await entriesAbout({ slotId: a })).toMatchObject([
        { action: 'takeHold', actor_id: x.id, actor_email: x.email },
      ]);
      expect(await entriesAbout({ slotId: b })).toMatchObject([{ action: 'takeHold', actor_id: y.id }]);
    },
  );

  it(
    'a reschedule hold names the booking; a hold rolled back with its transaction leaves no entry and no ' + 'hold',
    async () => {
      const family = await createPerson(w.t.db, false);
      const booked = await bookDirect(w.t.db, family, session().id);
      const target = session().id;
      const moved = await w.call('POST', '/bookings/reservation', family, { slotId: target, bookingId: booked.id });
      expect(moved.statusCode).toBe(201);
      expect(await entriesAbout({ bookingId: booked.id })).toMatchObject([
        { action: 'takeHold', slot_id: target, booking_id: booked.id },
      ]);

      const slot = session().id;
      const now = w.clock.now();
      await expect(
        w.t.db.transaction(async (tx) => {
          const args = {
            slotId: slot,
            reservationId: crypto.randomUUID(),
            expiresAt: new Date(now.getTime() + 600_000),
            now,
            leadCutoff: now,
            bookingId: null,
          };
          expect(await claimSlot(tx, args, { actor: familyActor(family.id), at: now })).toBe(true);
          throw new Error('rolled back after the hold');
        }),
      ).rejects.toThrow('rolled back');
      expect(await entriesAbout({ slotId: slot })).toEqual([]);
      expect(
        (await w.t.db.execute(sql`select hold_reservation_id from slots where id = ${slot}::uuid`)).rows[0]!
          .hold_reservation_id,
      ).toBeNull();
    },
  );

  it('a waitlist offer made, passed on, lapsed and claimed: one entry each', async () => {
    const waiting = async (slotId: string) => {
      const family = await createPerson(w.t.db, false);
      await w.t.db.execute(sql`
        insert into waitlist_entries (user_id, location_id, slot_type_id, date, status, created_at, updated_at)
        select ${family.id}::uuid, s.location_id, s.slot_type_id, ${w.day}::date, 'waiting', now(), now() from slots s
        where s.id = ${slotId}::uuid`);
      return family;
    };
    const entryOf = async (family: Person) =>
      (await w.t.db.execute(sql`select id, reservation_id from waitlist_entries where user_id = ${family.id}::uuid`))
        .rows[0]!;

    const passed = session().id;
    const p = await waiting(passed);
    expect(await handOffSlot(w.t.app, passed)).toBe(true);
    await leaveWaitlist(w.t.app, p.id, (await entryOf(p)).id as string);
    expect(await entriesAbout({ slotId: passed })).toMatchObject([
      {
        action: 'offerFromWaitlist',
        actor_kind: 'system',
        after: { state: 'held', waitlistEntryId: (await entryOf(p)).id },
      },
      { action: 'passOffer', actor_kind: 'family', actor_id: p.id, after: { state: 'free' } },
    ]);

    const lapsed = session().id;
    await waiting(lapsed);
    expect(await handOffSlot(w.t.app, lapsed)).toBe(true);
    w.clock.advance(24 * 60 * 60_000);
    await settleOffers(w.t.app);
    await settleOffers(w.t.app);
    expect(await actions({ slotId: lapsed })).toEqual(['offerFromWaitlist', 'lapseOffer']);

    w.clock.set(dayBefore());
    const claimed = session().id;
    const c = await waiting(claimed);
    expect(await handOffSlot(w.t.app, claimed)).toBe(true);
    // The family checked the offer out and paid (the payment path has its own tests and entries).
    await w.t.db.execute(
      sql`update slots set hold_reservation_id = null, hold_expires_at = null where id = ${claimed}::uuid`,
    );
    const booked = await bookDirect(w.t.db, c, claimed);
    await w.t.db.execute(
      sql`update reservations set status = 'checked_out', booking_id =
${booked.id}::uuid where id = ${(await entryOf(c)).reservation_id as string}::uuid`,
    );
    await settleOffers(w.t.app);
    await settleOffers(w.t.app);
    expect(await entriesAbout({ bookingId: booked.id })).toMatchObject([
      { action: 'claimOffer', slot_id: claimed, after: { waitlist: 'booked' } },
    ]);
  });

  it('a closure writes one entry per session it closes, with the hold it ended; rolled back, none', async () => {
    const [held, free] = [session().id, session().id];
    const family = await createPerson(w.t.db, false);
    const reservationId = (await hold(family, held)).json().id as string;
    const manager = await createPerson(w.t.db, true, undefined, { role: 'manager', mfaEnrolled: true });
    const by = {
      actor: { kind: 'staff' as const, id: manager.id, email: manager.email },
      at: w.clock.now(),
      reason: 'Santa has the flu',
    };
    await expect(
      w.t.db.transaction(async (tx) => {
        await closeSessions(tx, [free], by);
        throw new Error('rolled back after closing');
      }),
    ).rejects.toThrow('rolled back');
    expect(await entriesAbout({ slotId: free })).toEqual([]);
    await w.t.db.transaction((tx) => closeSessions(tx, [held, free], by));
    expect(await entriesAbout({ slotId: held })).toMatchObject([
      { action: 'takeHold' },
      {
        action: 'closeSession',
        actor_kind: 'staff',
        actor_id: manager.id,
        reason: 'Santa has the flu',
        after: { state: 'closed', holdsEnded: [reservationId] },
      },
    ]);
    expect(await entriesAbout({ slotId: free })).toMatchObject([{ action: 'closeSession', after: { holdsEnded: [] } }]);
  });
});
