import type { Readable } from 'node:stream';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { formatSessionTime } from '@kringle/contracts/dates';
import type { Tx } from '../../db/client';
import { errors } from '../../lib/errors';
import { insertAuditEntry, staffActor } from '../audit-trail/audit-entries.repository';
import { mailLogoUrl, renderEmail } from '../mail/mail-layout';
import { enqueueMail } from '../mail/outbox.repository';
import { promotionFor, type Promotion } from '../marketing/promotional-mail';
import { LocalPhotoStorage, photoIdOfKey, photoKey, photoStorageFor } from './photo-storage';
import {
  claimExpiredGallery,
  deletePhotoRows,
  expiredUnmatched,
  extendGallery,
  lockGallery,
  findPhoto,
  findPhotoBooking,
  markGalleryDeleted,
  photosOfBooking,
  type PhotoRow,
} from './photos.repository';

export type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'log'>;
const DAY_MS = 86_400_000;

/**
 * Staff extend one gallery: the later of now and its end, plus `days` (default
 * PHOTO_RETENTION_DAYS); its reminders go again. The gallery row is locked for the change and the
 * audit entry (who, why, the old and new end) is written in the same transaction.
 */
export async function extendPhotoGallery(
  deps: Deps,
  staff: { userId: string; email: string },
  bookingId: string,
  body: { days?: number; reason: string },
  assertLocation: (locationId: string) => void,
): Promise<{ bookingId: string; expiresAt: string }> {
  const booking = await findPhotoBooking(deps.db, bookingId);
  if (!booking) throw errors.notFound('That gallery');
  assertLocation(booking.locationId);
  const now = deps.clock.now();
  const days = body.days ?? deps.config.PHOTO_RETENTION_DAYS;
  const row = await deps.db.transaction(async (tx) => {
    const gallery = await lockGallery(tx, bookingId);
    if (!gallery || gallery.deletedAt) throw errors.notFound('That gallery');
    const from = Math.max(gallery.expiresAt.getTime(), now.getTime());
    const extended = await extendGallery(tx, bookingId, new Date(from + days * DAY_MS));
    if (!extended) throw errors.notFound('That gallery');
    await insertAuditEntry(tx, {
      at: now,
      actor: staffActor(staff),
      action: 'extendPhotoGallery',
      bookingId,
      orderId: null,
      reason: body.reason,
      before: { expiresAt: gallery.expiresAt.toISOString() },
      after: { expiresAt: extended.expiresAt.toISOString(), days },
    });
    return extended;
  });
  return { bookingId, expiresAt: row.expiresAt.toISOString() };
}

/** A local photo file behind a signed URL: 404 (never 403: nothing to learn) once expired, forged or deleted. */
export async function servePhotoFile(
  deps: Deps,
  key: string,
  expires: number,
  sig: string,
): Promise<{ stream: Readable; maxAgeSeconds: number }> {
  const storage = photoStorageFor(deps);
  const photoId = photoIdOfKey(key);
  if (!(storage instanceof LocalPhotoStorage) || !photoId || !(await storage.verify(key, expires, sig)))
    throw errors.notFound('That photo');
  const photo = await findPhoto(deps.db, photoId);
  const stream = photo ? await storage.get(key) : null;
  if (!stream) throw errors.notFound('That photo');
  return { stream, maxAgeSeconds: Math.max(0, expires - Math.floor(deps.clock.now().getTime() / 1000)) };
}

type Kind = 'ready' | 'reminder_7' | 'reminder_1';
const COLUMN: Record<Kind, string> = {
  ready: 'ready_sent_at',
  reminder_7: 'reminder_7_sent_at',
  reminder_1: 'reminder_1_sent_at',
};

/**
 * Marks galleries due for one e-mail and queues it in the same transaction: the conditional
 * UPDATE under SKIP LOCKED makes each e-mail go once whatever the number of processes.
 */
async function sendDue(deps: Deps, kind: Kind, now: Date): Promise<number> {
  const column = sql.raw(COLUMN[kind]);
  const due =
    kind === 'ready'
      ? sql`true`
      : sql`g.expires_at <=
      ${new Date(now.getTime() + (kind === 'reminder_7' ? 7 : 1) * DAY_MS).toISOString()}::timestamptz
and g.expires_at > ${now.toISOString()}::timestamptz`;
  return deps.db.transaction(async (tx) => {
    const rows = (
      await tx.execute(sql`
        update photo_galleries g set ${column} = ${now.toISOString()}::timestamptz
        from bookings b join locations l on l.id = b.location_id left join users u on u.id = b.user_id
        where g.booking_id = b.id and g.booking_id in (
          select booking_id from photo_galleries g where ${column} is null and deleted_at is null and ${due}
          order by booking_id limit 100 for update skip locked)
        returning g.booking_id, g.expires_at, b.reference, coalesce(b.walkin_email, u.email) as email, u.first_name,
        l.timezone,
          u.id as user_id`)
    ).rows as {
      booking_id: string;
      user_id: string | null;
      expires_at: string | Date;
      reference: string;
      email: string | null;
      first_name: string | null;
      timezone: string;
    }[];
    for (const r of rows) {
      if (!r.email) continue;
      // The offer to buy more goes only to a family that asked for offers (Spam Act, decision 0097).
      const promotion = r.user_id ? await promotionFor(tx, { id: r.user_id }, deps.config.PUBLIC_URL, now) : null;
      await enqueueMail(
        tx,
        galleryMail(deps, kind, { ...r, email: r.email, expiresAt: new Date(r.expires_at) }, promotion),
      );
    }
    return rows.length;
  });
}

function galleryMail(
  deps: Deps,
  kind: Kind,
  r: {
    booking_id: string;
    reference: string;
    email: string;
    first_name: string | null;
    timezone: string;
    expiresAt: Date;
  },
  promotion: Promotion | null,
) {
  const until = formatSessionTime(r.expiresAt, r.timezone);
  const title =
    kind === 'ready'
      ? 'Your photos with Santa are ready'
      : `Your photos will be deleted ${kind === 'reminder_7' ? 'in 7 days' : 'tomorrow'}`;
  const rendered = renderEmail({
    brandName: deps.config.BRAND_NAME,
    title,
    intro: [
      `Hi ${r.first_name ?? 'there'},`,
      kind === 'ready'
        ? 'Your photos are in your gallery: choose the ones your package includes and download them.'
        : 'Download the photos you want to keep before the gallery closes.',
      ...(promotion ? ['Like more of them? You can buy any other photo of your visit from the gallery.'] : []),
    ],
    action: { label: 'Open your gallery', url: `${deps.config.PUBLIC_URL}/bookings/${r.booking_id}/photos` },
    details: [
      { label: 'Reference', value: r.reference },
      { label: 'Gallery open until', value: until },
    ],
    outro: "For your family's privacy, every photo is deleted when the gallery closes.",
    logoUrl: mailLogoUrl(deps.config.PUBLIC_URL),
    ...(promotion ? { unsubscribeUrl: promotion.unsubscribeUrl } : {}),
  });
  return {
    to: r.email,
    subject: `${title} (${r.reference})`,
    html: rendered.html,
    text: rendered.text,
    ...(promotion ? { headers: promotion.headers } : {}),
  };
}

async function deleteFiles(deps: Deps, rows: PhotoRow[]): Promise<void> {
  const storage = photoStorageFor(deps);
  for (const r of rows) for (const v of ['preview', 'original'] as const) await storage.delete(photoKey(r.id, v));
}

/** Deletes one expired gallery's files then rows (the files first: a failure leaves rows to retry with). */
async function deleteOneGallery(deps: Deps, now: Date): Promise<boolean> {
  return deps.db.transaction(async (tx: Tx) => {
    const gallery = await claimExpiredGallery(tx, now);
    if (!gallery) return false;
    const rows = await photosOfBooking(tx, gallery.bookingId);
    await deleteFiles(deps, rows);
    await deletePhotoRows(
      tx,
      rows.map((r) => r.id),
    );
    await markGalleryDeleted(tx, gallery.bookingId, now);
    deps.log.info(
      { bookingId: gallery.bookingId, photos: rows.length, expiresAt: gallery.expiresAt },
      'photo gallery deleted at the end of retention',
    );
    return true;
  });
}

/**
 * A deleted account's photos (DELETE /user, decision 0058): every file then every row of these
 * bookings, at once rather than at the end of retention.
 */
export async function deleteBookingPhotos(deps: Deps, bookingIds: string[]): Promise<number> {
  let deleted = 0;
  for (const bookingId of bookingIds) {
    await deps.db.transaction(async (tx: Tx) => {
      const rows = await photosOfBooking(tx, bookingId);
      await deleteFiles(deps, rows);
      await deletePhotoRows(
        tx,
        rows.map((r) => r.id),
      );
      await markGalleryDeleted(tx, bookingId, deps.clock.now());
      deleted += rows.length;
    });
  }
  return deleted;
}

export interface RetentionRun {
  ready: number;
  reminders: number;
  galleriesDeleted: number;
  unmatchedDeleted: number;
}

/** The photos job: e-mails due, then expired galleries and old unmatched photos deleted. */
export async function runPhotoRetention(deps: Deps): Promise<RetentionRun> {
  const now = deps.clock.now();
  const ready = await sendDue(deps, 'ready', now);
  const reminders = (await sendDue(deps, 'reminder_1', now)) + (await sendDue(deps, 'reminder_7', now));
  let galleriesDeleted = 0;
  while (await deleteOneGallery(deps, now)) galleriesDeleted++;
  const stale = await expiredUnmatched(deps.db, new Date(now.getTime() - deps.config.PHOTO_RETENTION_DAYS * DAY_MS));
  await deleteFiles(deps, stale);
  await deps.db.transaction((tx) =>
    deletePhotoRows(
      tx,
      stale.map((r) => r.id),
    ),
  );
  if (stale.length) deps.log.info({ photos: stale.length }, 'unmatched photos deleted at the end of retention');
  return { ready, reminders, galleriesDeleted, unmatchedDeleted: stale.length };
}
