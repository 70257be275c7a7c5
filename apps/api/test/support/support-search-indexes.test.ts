import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * The support desk's search (migration 0015, decision 0051) is `ILIKE '%part%'` on the family's
 * e-mail, name and phone and on booking references: each arm has a trigram index the planner can
 * use, so it stays fast on a season's 150,000 bookings. Sequential scans are switched off so the
 * plan shows whether an index fits, whatever the (tiny) table sizes here.
 */
describe('indexes for the support desk search and the audit trail', () => {
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

  it.each([
    ["select id from users where email ilike '%olly@exa%'", 'users_email_trgm_idx'],
    ["select id from users where (first_name || ' ' || last_name) ilike '%olly ber%'", 'users_name_trgm_idx'],
    ["select id from users where phone ilike '%987 65%'", 'users_phone_trgm_idx'],
    [
      "select id from users where regexp_replace(coalesce(phone, ''), '[^0-9]', '', 'g') like '%412555%'",
      'users_phone_digits_trgm_idx',
    ],
    ["select id from bookings where reference ilike '%7K3Q%'", 'bookings_reference_trgm_idx'],
    // The exact-reference ranking of every search (migration 0029): without it, a search matching many families read
    // every booking.
    ["select user_id from bookings where lower(reference) = 'kr-7k3q9x'", 'bookings_reference_lower_idx'],
    [
      "select subject from mail_outbox where to_address = 'a@example.com' order by created_at desc limit 50",
      'mail_outbox_to_idx',
    ],
    [
      "select id from audit_entries where booking_id = '00000000-0000-4000-8000-000000000000' order by at, seq",
      'audit_entries_booking_idx',
    ],
    [
      "select id from audit_entries where actor_id = '00000000-0000-4000-8000-000000000000' order by at, seq",
      'audit_entries_actor_idx',
    ],
    [
      "select id from audit_entries where at >= now() - interval '1 day' order by at, seq limit 101",
      'audit_entries_at_idx',
    ],
  ])('%s uses %s', async (query, index) => {
    expect(await plan(query)).toContain(index);
  });
});
