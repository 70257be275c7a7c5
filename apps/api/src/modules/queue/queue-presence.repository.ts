import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/**
 * A family's presence in a line (issue 55, migration 0045): its last poll or stream. Written at most
 * every TOUCH_SECONDS a ticket, so a line of families polling costs few writes.
 */
const TOUCH_SECONDS = 20;
const lastSeen = sql`coalesce(t.last_seen_at, t.joined_at)`;

/** The families' tickets in this line were seen now (a poll, or live streams open on this process). */
export async function touchTickets(db: DbOrTx, locationId: string, userIds: string[], now: Date): Promise<void> {
  if (!userIds.length) return;
  const since = new Date(now.getTime() - TOUCH_SECONDS * 1000).toISOString();
  await db.execute(sql`
    update queue_tickets t set last_seen_at = ${now.toISOString()}::timestamptz
    where t.location_id = ${locationId}::uuid and t.user_id = any(${`{${userIds.join(',')}}`}::uuid[])
      and ${lastSeen} < ${since}::timestamptz`);
}

/** Families waiting who have not been seen for `seconds` lose their place (skipped by admissions). */
export async function lapseGone(tx: DbOrTx, locationId: string, now: Date, seconds: number): Promise<number> {
  const since = new Date(now.getTime() - seconds * 1000).toISOString();
  const { rows } = await tx.execute(sql`
    update queue_tickets t set status = 'lapsed'
    where t.location_id = ${locationId}::uuid and t.status = 'waiting' and t.line_key is not null
      and ${lastSeen} < ${since}::timestamptz
    returning t.id`);
  return rows.length;
}

/** A lapsed family back: once, to the back of the line (under the line's lock). False when it rejoined before. */
export async function rejoinAtBack(tx: DbOrTx, locationId: string, userId: string, now: Date): Promise<boolean> {
  const { rows } = await tx.execute(sql`
    update queue_tickets t set status = 'waiting', rejoined = true, last_seen_at = ${now.toISOString()}::timestamptz,
      position = (select coalesce(max(position), 0) + 1 from queue_tickets where location_id = ${locationId}::uuid)
    where t.location_id = ${locationId}::uuid and t.user_id = ${userId}::uuid and t.status = 'lapsed'
      and not t.rejoined
    returning t.id`);
  return rows.length > 0;
}
