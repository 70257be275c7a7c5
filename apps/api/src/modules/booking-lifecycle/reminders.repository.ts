import { and, eq, gt, isNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { bookings } from '../../db/schema/bookings';
import { slots } from '../../db/schema/catalogue';

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
 * Bookings marked no-show (and not checked in since) whose session ended in (since, now] (a
 * release does not mail last season's no-shows), with no invitation yet;
 * locked with SKIP LOCKED like the reminders.
 */
export async function lockDueNoShowInvites(tx: DbOrTx, now: Date, since: Date, limit = 200): Promise<string[]> {
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

/**
 * Confirmed online bookings whose session ended in (since, now] with no check-in and no mark
 * (AUTO_NO_SHOW, issue 56): their attendance facts, locked with SKIP LOCKED.
 */
export async function lockUnattendedEnded(tx: DbOrTx, now: Date, since: Date, limit = 200) {
  return tx
    .select({
      id: bookings.id,
      status: bookings.status,
      cancelReason: bookings.cancelReason,
      checkedInAt: bookings.checkedInAt,
      noShowAt: bookings.noShowAt,
    })
    .from(bookings)
    .innerJoin(slots, eq(slots.id, bookings.slotId))
    .where(
      and(
        eq(bookings.status, 'completed'),
        eq(bookings.source, 'online'),
        isNull(bookings.checkedInAt),
        isNull(bookings.noShowAt),
        lte(slots.endAt, now),
        gt(slots.endAt, since),
      ),
    )
    .limit(limit)
    .for('update', { of: bookings, skipLocked: true });
}
