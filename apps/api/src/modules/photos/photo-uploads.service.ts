import { randomUUID } from 'node:crypto';
import { MAX_PHOTOS_PER_UPLOAD, type RejectedPhoto } from '@kringle/contracts/photos';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../lib/errors';
import type { AuthClaims } from '../accounts/id-tokens';
import { staffActor, type Actor } from '../audit-trail/audit-entries.repository';
import { findLocation } from '../catalogue/catalogue.repository';
import { bookingOfCheckInCode } from '../check-in/check-in-codes';
import { processPhoto, readQrCode } from './photo-processing';
import { isRejected, noneKept, orRejected } from './photo-rejections';
import { Incoming, incomingDir, type UploadedFile } from './incoming';
import { overlapped } from './overlapped';
import { auditAssigned, auditUploaded } from './photo-audit';
import { photoKey, photoStorageFor, type PhotoStorage } from './photo-storage';
import {
  assignPhoto,
  ensureGallery,
  findPhoto,
  findPhotoBooking,
  insertPhotos,
  lockPhotoBooking,
  type PhotoBooking,
  type PhotoRow,
} from './photos.repository';

export type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'log'>;

export interface StaffPhoto {
  id: string;
  bookingId: string | null;
  locationId: string;
  width: number;
  height: number;
  previewUrl: string;
  createdAt: string;
}

/** A photo whose files are stored but whose row is not written yet: invisible, and deleted if the upload fails. */
interface Staged {
  id: string;
  width: number;
  height: number;
}

const DAY_MS = 86_400_000;

export async function toStaffPhoto(storage: PhotoStorage, row: PhotoRow): Promise<StaffPhoto> {
  return {
    id: row.id,
    bookingId: row.bookingId,
    locationId: row.locationId,
    width: row.width,
    height: row.height,
    previewUrl: await storage.signedUrl(photoKey(row.id, 'preview'), 900),
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Files of one request received ahead of processing. They wait on disk (`DATA_DIR/incoming`), not
 * in memory, so the body arrives as fast as the network sends it, never slowed by processing past
 * REQUEST_TIMEOUT_MS (decision 0070); libvips reads each from there when a slot is free.
 */
const AHEAD = MAX_PHOTOS_PER_UPLOAD;

async function stage(deps: Deps, storage: PhotoStorage, input: string, staged: Staged[]): Promise<Staged> {
  // Listed before anything is written, so a failure anywhere after still deletes its files.
  const entry: Staged = { id: randomUUID(), width: 0, height: 0 };
  staged.push(entry);
  const out = await processPhoto(input, deps.config.BRAND_NAME, deps.config.PHOTO_MAX_PIXELS);
  entry.width = out.width;
  entry.height = out.height;
  await Promise.all([
    storage.put(photoKey(entry.id, 'original'), out.original, 'image/jpeg'),
    storage.put(photoKey(entry.id, 'preview'), out.preview, 'image/jpeg'),
  ]);
  return entry;
}

async function discard(deps: Deps, storage: PhotoStorage, staged: Staged[]): Promise<void> {
  for (const s of staged) {
    for (const variant of ['original', 'preview'] as const) {
      await storage
        .delete(photoKey(s.id, variant))
        .catch((err: unknown) => deps.log.warn({ err, photoId: s.id }, 'could not delete a staged photo file'));
    }
  }
}

/**
 * All or nothing: every file is processed and stored first, then the rows are written in one
 * transaction; a failure anywhere (a bad file, a dropped connection mid-upload, the database)
 * deletes the files already stored, so nothing half-made stays. The files are processed while the
 * next ones arrive (`overlapped`, which ends every work started before it throws).
 */
async function uploadAtomically<T>(
  deps: Deps,
  work: (staged: Staged[], storage: PhotoStorage, incoming: Incoming) => Promise<T>,
): Promise<T> {
  const storage = photoStorageFor(deps);
  const staged: Staged[] = [];
  const incoming = new Incoming(incomingDir(deps.config.DATA_DIR));
  try {
    return await work(staged, storage, incoming);
  } catch (e) {
    await discard(deps, storage, staged);
    throw e;
  } finally {
    await incoming.clear();
  }
}

function checkBookingForPhotos(booking: PhotoBooking | null, locationId?: string): PhotoBooking {
  if (!booking) throw errors.notFound('That booking');
  if (booking.status !== 'completed') throw errors.photosNeedConfirmedBooking(booking.reference);
  if (locationId && booking.locationId !== locationId) throw errors.photosWrongLocation(booking.reference);
  return booking;
}

const expiryFrom = (deps: Deps, now: Date) => new Date(now.getTime() + deps.config.PHOTO_RETENTION_DAYS * DAY_MS);

/** Photos for the family in front of the camera: any confirmed booking, whatever its day. */
/** A received file: where it waits on disk, and the name it was sent with. */
const received = (incoming: Incoming) => async (f: UploadedFile) => ({
  at: await incoming.receive(f),
  name: f.filename,
});

export async function uploadToBooking(
  deps: Deps,
  staff: AuthClaims,
  bookingId: string,
  files: AsyncIterable<UploadedFile>,
  assertLocation: (locationId: string) => void,
): Promise<{ items: StaffPhoto[]; rejected: RejectedPhoto[] }> {
  assertLocation(checkBookingForPhotos(await findPhotoBooking(deps.db, bookingId)).locationId);
  return uploadAtomically(deps, async (staged, storage, incoming) => {
    const results = await overlapped(files, AHEAD, received(incoming), (file) =>
      orRejected(file.name, async () => {
        const photo = await stage(deps, storage, file.at, staged);
        await incoming.done(file.at);
        return photo;
      }),
    );
    if (!results.length) throw errors.invalidField('body.files', 'Send at least one JPEG photo in fields named files');
    const rejected = results.filter(isRejected).map((r) => r.rejected);
    const done = results.filter((r): r is Staged => !isRejected(r));
    if (!done.length) throw noneKept(rejected);
    const rows = await deps.db.transaction(async (tx) => {
      // Locked and checked again: a cancellation during the upload wins.
      const booking = checkBookingForPhotos(await lockPhotoBooking(tx, bookingId));
      const now = deps.clock.now();
      const inserted = await insertPhotos(
        tx,
        done.map((s) => ({
          id: s.id,
          bookingId,
          locationId: booking.locationId,
          uploadedBy: staff.userId,
          width: s.width,
          height: s.height,
          createdAt: now,
        })),
      );
      await ensureGallery(tx, bookingId, now, expiryFrom(deps, now));
      await auditUploaded(tx, now, staffActor(staff), booking.locationId, inserted);
      return inserted;
    });
    return { items: await Promise.all(rows.map((r) => toStaffPhoto(storage, r))), rejected };
  });
}

export interface BatchResult {
  rejected: RejectedPhoto[];
  assigned: { bookingId: string; count: number }[];
  unmatched: StaffPhoto[];
  openRunOf: string | null;
}

/** The booking a code or a continued run gives photos to: a confirmed booking at this location, else none. */
async function runOwner(deps: Deps, bookingId: string | null, locationId: string): Promise<string | null> {
  const booking = bookingId ? await findPhotoBooking(deps.db, bookingId) : null;
  return booking && booking.status === 'completed' && booking.locationId === locationId ? booking.id : null;
}

/**
 * A shooting sequence in order. A photo of a check-in QR code is not kept: it starts the photos of
 * that family (a confirmed booking at this location). A code that is not such a booking ends the
 * run, so what follows waits in the unmatched tray rather than going to the previous family.
 * A sequence too large for one request is sent in several: each continues the run the one before
 * ended with (`continueRunOf`, the previous answer's `openRunOf`), so a cut never orphans a family.
 */
export async function uploadBatch(
  deps: Deps,
  staff: AuthClaims,
  locationId: string,
  files: AsyncIterable<UploadedFile>,
  continueRunOf?: string,
): Promise<BatchResult> {
  if (!(await findLocation(deps.db, locationId))) throw errors.notFound('That location');
  const continued = await runOwner(deps, continueRunOf ?? null, locationId);
  return uploadAtomically(deps, async (staged, storage, incoming) => {
    // Each file is read for a code and processed while the next ones arrive; who owns a photo is
    // decided after, in shooting order.
    // A rejected file is neither a photo nor a code: the run goes on past it.
    const results = await overlapped(files, AHEAD, received(incoming), (file) =>
      orRejected(file.name, async (): Promise<{ code: string | null } | { photo: Staged }> => {
        const code = await readQrCode(file.at, deps.config.PHOTO_MAX_PIXELS);
        if (code === null) {
          const photo = await stage(deps, storage, file.at, staged);
          await incoming.done(file.at);
          return { photo };
        }
        const booking = await bookingOfCheckInCode(deps.db, code);
        return { code: await runOwner(deps, booking?.id ?? null, locationId) };
      }),
    );
    if (!results.length) throw errors.invalidField('body.files', 'Send at least one JPEG photo in fields named files');
    const rejected = results.filter(isRejected).map((r) => r.rejected);
    const done = results.filter((r): r is { code: string | null } | { photo: Staged } => !isRejected(r));
    if (!done.some((d) => 'photo' in d) && rejected.length) throw noneKept(rejected);
    const owner = new Map<string, string | null>();
    const inOrder: Staged[] = [];
    let current = continued;
    for (const d of done) {
      if ('code' in d) current = d.code;
      else {
        owner.set(d.photo.id, current);
        inOrder.push(d.photo);
      }
    }
    const rows = await deps.db.transaction(async (tx) => {
      const now = deps.clock.now();
      const bookingIds = [...new Set([...owner.values()].filter((v): v is string => v !== null))].sort();
      // Locked in one order (two sets uploading for the same families never deadlock) and
      // checked again: a family cancelled meanwhile gets nothing; its photos wait unmatched.
      for (const id of bookingIds) {
        const b = await lockPhotoBooking(tx, id);
        if (b && b.status === 'completed') {
          await ensureGallery(tx, id, now, expiryFrom(deps, now));
        } else {
          for (const [photo, o] of owner) if (o === id) owner.set(photo, null);
        }
      }
      const inserted = await insertPhotos(
        tx,
        inOrder.map((s) => ({
          id: s.id,
          bookingId: owner.get(s.id) ?? null,
          locationId,
          uploadedBy: staff.userId,
          width: s.width,
          height: s.height,
          createdAt: now,
        })),
      );
      await auditUploaded(tx, now, staffActor(staff), locationId, inserted);
      return inserted;
    });
    const assigned = new Map<string, number>();
    for (const r of rows) if (r.bookingId) assigned.set(r.bookingId, (assigned.get(r.bookingId) ?? 0) + 1);
    return {
      rejected,
      assigned: [...assigned].map(([bookingId, n]) => ({ bookingId, count: n })),
      unmatched: await Promise.all(rows.filter((r) => !r.bookingId).map((r) => toStaffPhoto(storage, r))),
      openRunOf: current,
    };
  });
}

/** A photo from the unmatched tray, given by hand to a confirmed booking of the same location. */
export async function assignUnmatched(
  deps: Deps,
  actor: Actor,
  photoId: string,
  bookingId: string,
  assertLocation: (locationId: string) => void,
): Promise<StaffPhoto> {
  const photo = await findPhoto(deps.db, photoId);
  if (!photo) throw errors.notFound('That photo');
  assertLocation(photo.locationId);
  if (photo.bookingId === bookingId) return toStaffPhoto(photoStorageFor(deps), photo);
  if (photo.bookingId) throw errors.illegalTransition();
  const row = await deps.db.transaction(async (tx) => {
    checkBookingForPhotos(await lockPhotoBooking(tx, bookingId), photo.locationId);
    const now = deps.clock.now();
    const moved = await assignPhoto(tx, photoId, bookingId);
    if (!moved) throw errors.illegalTransition(); // assigned by someone else meanwhile
    await ensureGallery(tx, bookingId, now, expiryFrom(deps, now));
    await auditAssigned(tx, now, actor, photo, bookingId);
    return moved;
  });
  return toStaffPhoto(photoStorageFor(deps), row);
}
