import type { BookingDetails as FamilyDetails } from '@kringle/contracts/booking-details';
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/** Stores the details unless the booking was cancelled or its session began meanwhile. */
export async function saveDetails(
  db: DbOrTx,
  args: { bookingId: string; userId: string; details: FamilyDetails; now: Date },
): Promise<boolean> {
  const now = args.now.toISOString();
  const result = await db.execute(sql`
    update bookings b set details = ${JSON.stringify(args.details)}::jsonb, details_updated_at = ${now}::timestamptz,
    details_deleted_at = null, updated_at = ${now}::timestamptz
    from slots s
    where b.id = ${args.bookingId}::uuid and b.user_id = ${args.userId}::uuid and s.id = b.slot_id
      and b.status <> 'cancelled' and s.start_at > ${now}::timestamptz`);
  return (result.rowCount ?? 0) === 1;
}

/**
 * Deletes the details of bookings whose session ended more than `retentionDays` ago, in batches.
 * SKIP LOCKED lets several API processes run it at once without waiting or deleting twice.
 */
export async function purgeExpiredDetails(
  db: DbOrTx,
  args: { now: Date; retentionDays: number; limit: number },
): Promise<number> {
  const cutoff = new Date(args.now.getTime() - args.retentionDays * 86_400_000).toISOString();
  const result = await db.execute(sql`
    with due as (
      select b.id from bookings b join slots s on s.id = b.slot_id
      where b.details is not null and s.end_at <= ${cutoff}::timestamptz
      limit ${args.limit}
      for update of b skip locked
    )
    update bookings b set details = null, details_deleted_at = ${args.now.toISOString()}::timestamptz
    from due where b.id = due.id`);
  return result.rowCount ?? 0;
}
