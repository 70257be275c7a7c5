import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addressHoldsOn, churnReleaseOf } from '../../src/modules/sessions/session-rules.sql';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * Lookups that run on every hold refresh, cancel, checkout and expiry (by reservation), and the
 * outbox job's hourly prune (by age), each have an index the planner can use (migration
 * 0008_hardening). Sequential scans are switched off so the plan shows whether an index fits,
 * whatever the (tiny) table sizes here.
 */
describe('indexes for holds and mail pruning', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t?.close());

  const plan = async (query: string) => {
    const client = await t.pool.connect();
    try {
      await client.query('set enable_seqscan = off');
      const { rows } = await client.query<{ 'QUERY PLAN': string }>(`explain ${query}`);
      return rows.map((r) => r['QUERY PLAN']).join('\n');
    } finally {
      await client.query('reset enable_seqscan');
      client.release();
    }
  };

  it('finds the slot a reservation holds through slots_hold_reservation_idx', async () => {
    expect(
      await plan("select id from slots where hold_reservation_id = '00000000-0000-4000-8000-000000000000'"),
    ).toContain('slots_hold_reservation_idx');
  });

  it("counts a family's recent releases (the churn cool-down) through reservations_user_released_idx", async () => {
    const churn = churnReleaseOf("'00000000-0000-4000-8000-000000000000'::uuid", 'now()', '3', '10');
    expect(await plan(`select ${churn}`)).toContain('reservations_user_released_idx');
  });

  it(
    "counts an address's live holds on a location's day (every hold, decision 0069) through " +
      'reservations_address_live_idx',
    async () => {
      const held = addressHoldsOn(
        "'x'",
        "'00000000-0000-4000-8000-000000000000'::uuid",
        "'2026-12-05'::date",
        "'Australia/Sydney'",
        'now()',
      );
      expect(await plan(`select * from ${held} a`)).toContain('reservations_address_live_idx');
    },
  );

  it(
    "reads the accounts whose sessions ended lately (each process's reload and poll, decision 0063) through " +
      'users_sessions_ended_idx',
    async () => {
      expect(
        await plan(
          'select id, session_epoch from users where sessions_ended_at is not null and sessions_ended_at > now() - ' +
            "interval '16 minutes'",
        ),
      ).toContain('users_sessions_ended_idx');
    },
  );

  it(
    "reads a session's bookings through bookings_slot_idx, and a booking's session through slots_booking_idx " +
      '(migration 0029)',
    async () => {
      // The run sheet, a closure's bookings, a season change's conflicts; a check-in's report facts.
      expect(
        await plan(
          "select id from bookings where slot_id in ('00000000-0000-4000-8000-000000000000', " +
            "'00000000-0000-4000-8000-000000000001')",
        ),
      ).toContain('bookings_slot_idx');
      expect(await plan("select id from slots where booking_id = '00000000-0000-4000-8000-000000000000'")).toContain(
        'slots_booking_idx',
      );
    },
  );

  it('prunes sent mail and the dev mailbox by age through their indexes', async () => {
    expect(
      await plan("delete from mail_outbox where status = 'sent' and sent_at < now() - interval '30 days'"),
    ).toContain('mail_outbox_sent_idx');
    expect(await plan("delete from dev_mailbox where created_at < now() - interval '7 days'")).toContain(
      'dev_mailbox_created_idx',
    );
  });
});
