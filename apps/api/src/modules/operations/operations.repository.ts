import type pg from 'pg';

/** Mail rows still to send (one index scan on mail_outbox_due_idx). */
export async function pendingMail(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from mail_outbox where status = 'pending'`,
  );
  return rows[0]?.n ?? 0;
}

/**
 * Each location with a fair-start line: its slug and the tickets placed in it (drawn or late) waiting for admission;
 * entrants before the draw have no place yet.
 */
export async function queueWaiting(pool: pg.Pool): Promise<{ id: string; slug: string; waiting: number }[]> {
  const { rows } = await pool.query<{ id: string; slug: string; waiting: number }>(`
    select l.id, l.slug, (select count(*)::int from queue_tickets t where t.location_id = l.id and t.status =
    'waiting' and t.position is not null) as waiting
    from locations l where l.queue_opens_minutes_before > 0`);
  return rows;
}

/**
 * Wallet passes changed and not yet sent on: Apple registrations to push, Google objects to update
 * (the due rows the wallet jobs lock, counted).
 */
export async function pendingWallet(pool: pg.Pool): Promise<{ apple: number; google: number }> {
  const { rows } = await pool.query<{ apple: number; google: number }>(`
    select (select count(*)::int from wallet_registrations r join bookings b on b.id = r.booking_id
        where r.pushed_version is null or b.updated_at > r.pushed_version) as apple,
      (select count(*)::int from google_wallet_objects g join bookings b on b.id = g.booking_id
        where b.updated_at > g.synced_version) as google`);
  return rows[0] ?? { apple: 0, google: 0 };
}

/** SMS rows still to send (sms_outbox_due_idx). */
export async function pendingSms(pool: pg.Pool): Promise<number> {
  const { rows } = await pool.query<{ n: number }>(
    `select count(*)::int as n from sms_outbox where status = 'pending'`,
  );
  return rows[0]?.n ?? 0;
}
