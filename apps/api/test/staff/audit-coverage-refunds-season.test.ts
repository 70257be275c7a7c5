import { zonedToInstant } from '@kringle/contracts/dates';
import { sql } from 'drizzle-orm';
import type Stripe from 'stripe';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { recordFailedRefund, settleRefund } from '../../src/modules/order-payments/payment-moves';
import { insertRefund } from '../../src/modules/order-payments/refunds.repository';
import { recordVersion, SYSTEM_SAVER } from '../../src/modules/catalogue/season-versions.repository';
import { handleStripeEvent } from '../../src/modules/payments/payments.service';
import { bookDirect, createPerson, SYDNEY, staffDay, type Person, type StaffDay } from './staff-fixtures';

/**
 * Decision 0062, beyond the sessions' state (audit-coverage.test.ts): every refund's settlement and every season save
 * writes exactly one audit entry, what changes nothing writes none; entries about no booking are served, and the table
 * is append-only.
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
  const hold = async (who: Person, slotId: string) => w.call('POST', '/bookings/reservation', who, { slotId });

  it(
    'a refund settled by Stripe, given up, or reported by a charge.refunded webhook: one entry each, none for old ' +
      'news',
    async () => {
      const family = await createPerson(w.t.db, false);
      const booked = await bookDirect(w.t.db, family, session().id);
      const orderId = (await w.t.db.execute(sql`select id from orders where booking_id = ${booked.id}::uuid`)).rows[0]!
        .id as string;
      const now = w.clock.now();
      const refundOf = (amountCents: number) =>
        w.t.db.transaction((tx) =>
          insertRefund(tx, { orderId, bookingId: booked.id, amountCents, reason: 'staff_refund' }),
        );

      const sent = await refundOf(1000);
      await w.t.db.transaction((tx) => settleRefund(tx, sent, 're_test_1', now));
      await w.t.db.transaction((tx) => settleRefund(tx, sent, 're_test_1', now));
      const failing = await refundOf(500);
      await w.t.db.transaction((tx) => recordFailedRefund(tx, failing, 'card network down', false, now));
      await w.t.db.transaction((tx) => recordFailedRefund(tx, failing, 'card network down', true, now));
      await w.t.db.transaction((tx) => recordFailedRefund(tx, failing, 'card network down', true, now));

      await w.t.db.execute(
        sql`update orders set payment_intent_id = ${`pi_audit_${booked.id}`} where id = ${orderId}::uuid`,
      );
      const charge = (id: string, refunded: number) =>
        ({
          id,
          type: 'charge.refunded',
          data: { object: { payment_intent: `pi_audit_${booked.id}`, amount_refunded: refunded } },
        }) as unknown as Stripe.Event;
      await handleStripeEvent(w.t.app, charge(`evt_a_${booked.id}`, 3995));
      await handleStripeEvent(w.t.app, charge(`evt_a_${booked.id}`, 3995));
      await handleStripeEvent(w.t.app, charge(`evt_b_${booked.id}`, 3995));

      expect(await entriesAbout({ bookingId: booked.id })).toMatchObject([
        {
          action: 'settleRefund',
          actor_kind: 'stripe',
          order_id: orderId,
          before: { refund: 'pending', refundedCents: 0 },
          after: { refund: 'succeeded', refundedCents: 1000, orderStatus: 'paid' },
        },
        { action: 'giveUpRefund', actor_kind: 'system', after: { refund: 'failed' } },
        {
          action: 'refundReported',
          actor_kind: 'stripe',
          before: { refundedCents: 1000, orderStatus: 'paid' },
          after: { refundedCents: 3995, orderStatus: 'refunded' },
        },
      ]);
    },
  );

  it('a season save writes one entry naming its version; the same file again, none', async () => {
    const file = { note: `audit ${crypto.randomUUID()}` };
    const counts = { sessionsAdded: 1, sessionsRemoved: 0, sessionsChanged: 2 };
    const version = await w.t.db.transaction((tx) => recordVersion(tx, file, SYSTEM_SAVER, counts, w.clock.now()));
    expect(await w.t.db.transaction((tx) => recordVersion(tx, file, SYSTEM_SAVER, counts, w.clock.now()))).toBe(
      version,
    );
    expect(await entriesAbout({ seasonVersion: version })).toMatchObject([
      {
        action: 'saveSeason',
        actor_kind: 'system',
        booking_id: null,
        slot_id: null,
        before: { version: version - 1 },
        after: { version, sessionsAdded: 1, sessionsChanged: 2 },
      },
    ]);
  });

  it(
    'entries about no booking are served by GET /staff/audit, and the table still refuses UPDATE and ' + 'DELETE',
    async () => {
      const slot = session().id;
      const family = await createPerson(w.t.db, false);
      expect((await hold(family, slot)).statusCode).toBe(201);
      const manager = await createPerson(w.t.db, true, undefined, { role: 'manager', mfaEnrolled: true });
      const page = await w.call('GET', `/staff/audit?actorId=${family.id}`, manager);
      expect(page.statusCode).toBe(200);
      expect(page.json().items).toMatchObject([
        {
          action: 'takeHold',
          bookingId: null,
          slotId: slot,
          seasonVersion: null,
          actor: { kind: 'family', id: family.id },
        },
      ]);
      expect((await w.call('GET', `/staff/audit.csv?actorId=${family.id}`, manager)).body).toContain(slot);

      const refused = (attempt: Promise<unknown>) =>
        expect(attempt).rejects.toSatisfy((e: Error & { cause?: Error }) =>
          /append-only|permission denied/.test(e.cause?.message ?? e.message),
        );
      const id = page.json().items[0].id as string;
      await refused(
        w.t.db.execute(
          sql`update audit_entries set slot_id = gen_random_uuid(), actor_email = null where id = ${id}::uuid`,
        ),
      );
      await refused(
        w.t.db.execute(sql`update audit_entries set season_version = 1, actor_email = null where id = ${id}::uuid`),
      );
      await refused(w.t.db.execute(sql`delete from audit_entries where id = ${id}::uuid`));
      // An entry must be about something.
      await expect(
        w.t.db.execute(sql`insert into audit_entries (actor_kind, action) values ('system', 'nothing')`),
      ).rejects.toSatisfy((e: Error & { cause?: Error }) =>
        /audit_entries_has_subject/.test(e.cause?.message ?? e.message),
      );
    },
  );
});
