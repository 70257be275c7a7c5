import type { Tx } from '../../db/client';
import { insertAuditEntry, type Actor } from '../audit-trail/audit-entries.repository';

/**
 * Photos given to a family, by upload or by hand, and photos a family unlocks change what the
 * family can see and download: each writes an audit entry in its transaction (issue 48 item 5).
 * The entries carry the photos' ids, never their content.
 */

/** One entry per booking that received photos, and one for those left in the unmatched tray. */
export async function auditUploaded(
  tx: Tx,
  now: Date,
  actor: Actor,
  locationId: string,
  rows: { id: string; bookingId: string | null }[],
): Promise<void> {
  const byBooking = new Map<string | null, string[]>();
  for (const r of rows) byBooking.set(r.bookingId, [...(byBooking.get(r.bookingId) ?? []), r.id]);
  for (const [bookingId, photoIds] of byBooking) {
    await insertAuditEntry(tx, {
      at: now,
      actor,
      action: 'photo.uploaded',
      bookingId,
      orderId: null,
      reason: null,
      before: { locationId, photos: 0 },
      after: { locationId, photos: photoIds.length, photoIds, ...(bookingId ? {} : { unmatched: true }) },
    });
  }
}

export async function auditAssigned(
  tx: Tx,
  now: Date,
  actor: Actor,
  photo: { id: string; locationId: string },
  bookingId: string,
): Promise<void> {
  await insertAuditEntry(tx, {
    at: now,
    actor,
    action: 'photo.assigned',
    bookingId,
    orderId: null,
    reason: null,
    before: { photoId: photo.id, locationId: photo.locationId, bookingId: null },
    after: { photoId: photo.id, bookingId },
  });
}

export async function auditUnlocked(
  tx: Tx,
  now: Date,
  actor: Actor,
  bookingId: string,
  photoIds: string[],
  unlockedBefore: number,
): Promise<void> {
  await insertAuditEntry(tx, {
    at: now,
    actor,
    action: 'photo.unlocked',
    bookingId,
    orderId: null,
    reason: null,
    before: { unlocked: unlockedBefore },
    after: { unlocked: unlockedBefore + photoIds.length, photoIds },
  });
}
