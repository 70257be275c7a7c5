import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client';

/**
 * The gallery rows a photo order changes once paid (decision 0065): only for
 * photo-order-transitions.ts, in the transaction of the payment.
 */

/**
 * Locks the booking's gallery and says whether it is still open with every one of these photos in
 * it. The lock keeps the retention job (which claims galleries FOR UPDATE SKIP LOCKED) from
 * deleting them between this check and the unlock.
 */
export async function lockOpenGalleryWith(tx: Tx, bookingId: string, photoIds: string[], now: Date): Promise<boolean> {
  const gallery = await tx.execute(sql`
    select 1 from photo_galleries
    where booking_id = ${bookingId}::uuid and deleted_at is null and expires_at > ${now.toISOString()}::timestamptz
    for update`);
  if (!gallery.rows.length) return false;
  const found = await tx.execute(sql`
    select count(*)::int as n from photos where booking_id = ${bookingId}::uuid and id =
    any(${`{${photoIds.join(',')}}`}::uuid[])`);
  return Number(found.rows[0]!.n) === photoIds.length;
}

/** The photos bought unlock (those already unlocked keep their time) and the allowance grows by as many. */
export async function unlockBoughtPhotos(tx: Tx, bookingId: string, photoIds: string[], now: Date): Promise<number> {
  await tx.execute(sql`
    update photos set unlocked_at = coalesce(unlocked_at, ${now.toISOString()}::timestamptz)
    where booking_id = ${bookingId}::uuid and id = any(${`{${photoIds.join(',')}}`}::uuid[])`);
  const result = await tx.execute(sql`
    update photo_galleries set extra_photos = extra_photos + ${photoIds.length}
    where booking_id = ${bookingId}::uuid returning extra_photos`);
  return Number(result.rows[0]!.extra_photos);
}
