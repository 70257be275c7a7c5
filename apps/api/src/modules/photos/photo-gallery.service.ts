import type { Readable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import yazl from 'yazl';
import { errors } from '../../lib/errors';
import { familyActor, insertAuditEntry } from '../audit-trail/audit-entries.repository';
import { auditUnlocked } from './photo-audit';
import { ALL_PHOTOS } from '@kringle/contracts/season';
import { MAX_SIGNED_SECONDS, photoKey, photoStorageFor } from './photo-storage';
import {
  digitalPhotosOf,
  extraPhotoPriceCents,
  findGallery,
  findPhotoBooking,
  lockPhotoBooking,
  markUnlocked,
  photosOfBooking,
  recordGalleryView,
  type GalleryRow,
  type PhotoBooking,
  type PhotoRow,
} from './photos.repository';

export type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'log'>;

export interface Gallery {
  items: { id: string; previewUrl: string; width: number; height: number; unlocked: boolean }[];
  /** Photos the packages include (plus any bought), or "all". */
  included: number | 'all';
  unlocked: number;
  /** One more photo by card; null when every photo is included. */
  extraPhotoPriceCents: number | null;
  /** When every photo is deleted; null before the first upload. */
  expiresAt: string | null;
}

/** The family's own booking, else 404 (another family's booking is not there for them). */
async function ownBooking(deps: Deps, userId: string, bookingId: string): Promise<PhotoBooking> {
  const booking = await findPhotoBooking(deps.db, bookingId);
  if (!booking || booking.userId !== userId) throw errors.notFound('That booking');
  return booking;
}

/** The sum of digitalPhotos × quantity over the booking's packages and add-ons, "all" if any says so. */
export async function includedPhotos(
  deps: Pick<Deps, 'db'>,
  booking: PhotoBooking,
  gallery: GalleryRow | null,
): Promise<number | 'all'> {
  const perUnit = await digitalPhotosOf(deps.db, booking.items);
  let total = gallery?.extraPhotos ?? 0;
  for (const item of booking.items) {
    const n = perUnit.get(item.id) ?? null;
    if (n === ALL_PHOTOS) return 'all';
    total += (n ?? 0) * item.quantity;
  }
  return total;
}

/** A gallery past its end shows no photos, whether or not the job has deleted them yet. */
const closed = (gallery: GalleryRow | null, now: Date) =>
  Boolean(gallery && (gallery.deletedAt || gallery.expiresAt.getTime() <= now.getTime()));
export const visiblePhotos = (gallery: GalleryRow | null, rows: PhotoRow[], now: Date) =>
  closed(gallery, now) ? [] : rows;

async function view(deps: Deps, booking: PhotoBooking): Promise<Gallery> {
  const storage = photoStorageFor(deps);
  // One snapshot: a purchase unlocks its photos and raises extra_photos in one transaction, and reads
  // of the two on either side of its commit showed "4 unlocked: 2 with your package, 1 bought" (CI).
  const { gallery, rows, included } = await deps.db.transaction(
    async (tx) => {
      const found = await findGallery(tx, booking.id);
      const photos = visiblePhotos(found, await photosOfBooking(tx, booking.id), deps.clock.now());
      return { gallery: found, rows: photos, included: await includedPhotos({ db: tx }, booking, found) };
    },
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  const isUnlocked = (r: PhotoRow) => included === 'all' || r.unlockedAt !== null;
  return {
    items: await Promise.all(
      rows.map(async (r) => ({
        id: r.id,
        previewUrl: await storage.signedUrl(photoKey(r.id, 'preview'), MAX_SIGNED_SECONDS),
        width: r.width,
        height: r.height,
        unlocked: isUnlocked(r),
      })),
    ),
    included,
    unlocked: rows.filter(isUnlocked).length,
    extraPhotoPriceCents: included === 'all' ? null : await extraPhotoPriceCents(deps.db),
    expiresAt: gallery && !closed(gallery, deps.clock.now()) ? gallery.expiresAt.toISOString() : null,
  };
}

export async function familyGallery(deps: Deps, userId: string, bookingId: string): Promise<Gallery> {
  return view(deps, await ownBooking(deps, userId, bookingId));
}

/** GET /bookings/{id}/photos: the family looking at its gallery, counted (issue 56). */
export async function openFamilyGallery(deps: Deps, userId: string, bookingId: string): Promise<Gallery> {
  const gallery = await familyGallery(deps, userId, bookingId);
  await recordGalleryView(deps.db, bookingId, deps.clock.now());
  return gallery;
}

/**
 * Unlocks photos within the allowance. The booking row is locked for the count and the update,
 * so two devices unlocking at once cannot pass the allowance together. Already unlocked photos
 * count once; unknown ids (or another booking's) are 404.
 */
export async function unlockPhotos(
  deps: Deps,
  userId: string,
  bookingId: string,
  photoIds: string[],
): Promise<Gallery> {
  await ownBooking(deps, userId, bookingId);
  await deps.db.transaction(async (tx) => {
    const booking = await lockPhotoBooking(tx, bookingId);
    if (!booking || booking.userId !== userId) throw errors.notFound('That booking');
    const gallery = await findGallery(tx, bookingId);
    const rows = visiblePhotos(gallery, await photosOfBooking(tx, bookingId), deps.clock.now());
    const byId = new Map(rows.map((r) => [r.id, r]));
    const wanted = [...new Set(photoIds)];
    if (wanted.some((id) => !byId.has(id))) throw errors.notFound('That photo');
    const included = await includedPhotos({ db: tx }, booking, gallery);
    const fresh = wanted.filter((id) => byId.get(id)!.unlockedAt === null);
    if (included !== 'all') {
      const left = included - rows.filter((r) => r.unlockedAt !== null).length;
      if (fresh.length > left) throw errors.photoAllowanceUsed(Math.max(0, left));
    }
    await markUnlocked(tx, bookingId, fresh, deps.clock.now());
    if (fresh.length)
      await auditUnlocked(
        tx,
        deps.clock.now(),
        familyActor(userId),
        bookingId,
        fresh,
        rows.filter((r) => r.unlockedAt !== null).length,
      );
  });
  return familyGallery(deps, userId, bookingId);
}

async function unlockedPhoto(deps: Deps, userId: string, bookingId: string, photoId: string): Promise<PhotoRow> {
  const booking = await ownBooking(deps, userId, bookingId);
  const gallery = await findGallery(deps.db, bookingId);
  const photo = visiblePhotos(gallery, await photosOfBooking(deps.db, bookingId), deps.clock.now()).find(
    (r) => r.id === photoId,
  );
  if (!photo) throw errors.notFound('That photo');
  if (photo.unlockedAt === null && (await includedPhotos(deps, booking, gallery)) !== 'all') throw errors.photoLocked();
  return photo;
}

/**
 * Every original handed out is in the audit trail (issue 39, decision 0065): who, which booking and
 * which photos, written before the link or the zip is given, so no download goes unrecorded.
 */
async function auditDownload(
  deps: Deps,
  userId: string,
  bookingId: string,
  action: 'downloadPhotoOriginal' | 'downloadPhotoZip',
  photoIds: string[],
): Promise<void> {
  const at = deps.clock.now();
  await deps.db.transaction((tx) =>
    insertAuditEntry(tx, {
      at,
      actor: familyActor(userId),
      action,
      bookingId,
      orderId: null,
      reason: null,
      before: {},
      after: { photoIds, count: photoIds.length },
    }),
  );
}

/** A signed URL of the unwatermarked original, valid at most 15 minutes. */
export async function originalUrl(deps: Deps, userId: string, bookingId: string, photoId: string): Promise<string> {
  const photo = await unlockedPhoto(deps, userId, bookingId, photoId);
  await auditDownload(deps, userId, bookingId, 'downloadPhotoOriginal', [photo.id]);
  return photoStorageFor(deps).signedUrl(photoKey(photo.id, 'original'), MAX_SIGNED_SECONDS);
}

/**
 * The unlocked originals as one zip, streamed: each file is opened only when the zip writer
 * reaches it (stored, not deflated: JPEGs do not compress), so memory stays at one file's buffer.
 */
export async function originalsZip(
  deps: Deps,
  userId: string,
  bookingId: string,
): Promise<{ stream: Readable; reference: string; count: number }> {
  const booking = await ownBooking(deps, userId, bookingId);
  const gallery = await findGallery(deps.db, bookingId);
  const included = await includedPhotos(deps, booking, gallery);
  const rows = visiblePhotos(gallery, await photosOfBooking(deps.db, bookingId), deps.clock.now()).filter(
    (r) => included === 'all' || r.unlockedAt !== null,
  );
  const storage = photoStorageFor(deps);
  const zip = new yazl.ZipFile();
  rows.forEach((r, i) => {
    zip.addReadStreamLazy(`${booking.reference}-${String(i + 1).padStart(3, '0')}.jpg`, { compress: false }, (cb) => {
      storage.get(photoKey(r.id, 'original')).then(
        (s) => (s ? cb(null, s) : cb(new Error(`photo ${r.id} is gone`), undefined as never)),
        (e: Error) => cb(e, undefined as never),
      );
    });
  });
  zip.end();
  await auditDownload(
    deps,
    userId,
    bookingId,
    'downloadPhotoZip',
    rows.map((r) => r.id),
  );
  return { stream: zip.outputStream as Readable, reference: booking.reference, count: rows.length };
}
