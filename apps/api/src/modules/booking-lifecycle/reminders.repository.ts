import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/**
 * Confirmed online bookings (a walk-in is already at the set) whose session starts in (from, to]
 * and that had no reminder yet, locked
 * with SKIP LOCKED so that several processes never pick the same one.
 */
export async function lockDueReminders(tx: DbOrTx, from: Date, to: Date, limit = 200): Promise<string[]> {
  const due = await tx.execute(sql`
    select b.id from bookings b join slots s on s.id = b.slot_id
    where b.status = 'completed' and b.source = 'online' and b.reminder_sent_at is null
      and s.start_at > ${from.toISOString()}::timestamptz
      and s.start_at <= ${to.toISOString()}::timestamptz
    limit ${limit} for update of b skip locked`);
  return due.rows.map((r) => r.id as string);
}

export async function markReminderSent(tx: DbOrTx, bookingId: string, at: Date): Promise<void> {
  await tx.execute(
    sql`update bookings set reminder_sent_at = ${at.toISOString()}::timestamptz where id = ${bookingId}::uuid`,
  );
}

/**
 * Bookings marked no-show (and not checked in since) whose session ended at or before `now`, in
 * the last `withinDays` (a release does not mail last season's no-shows), with no invitation yet;
 * locked with SKIP LOCKED like the reminders.
 */
export async function lockDueNoShowInvites(tx: DbOrTx, now: Date, withinDays = 2, limit = 200): Promise<string[]> {
  const since = new Date(now.getTime() - withinDays * 86_400_000);
  const due = await tx.execute(sql`
    select b.id from bookings b join slots s on s.id = b.slot_id
    where b.status = 'completed' and b.no_show_at is not null and b.checked_in_at is null
      and b.no_show_mail_sent_at is null and b.source = 'online'
      and s.end_at <= ${now.toISOString()}::timestamptz and s.end_at > ${since.toISOString()}::timestamptz
    limit ${limit} for update of b skip locked`);
  return due.rows.map((r) => r.id as string);
}

export async function markNoShowInviteSent(tx: DbOrTx, bookingId: string, at: Date): Promise<void> {
  await tx.execute(
    sql`update bookings set no_show_mail_sent_at = ${at.toISOString()}::timestamptz where id = ${bookingId}::uuid`,
  );
}
