import { and, asc, desc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { bookings, orders, type LineItem } from '../../db/schema/bookings';
import { DEFAULT_EXTRA_PHOTO_PRICE_CENTS } from '@kringle/contracts/season';
import { addOns, packages } from '../../db/schema/catalogue';
import { photoGalleries, photos } from '../../db/schema/photos';

export type PhotoRow = typeof photos.$inferSelect;
export type GalleryRow = typeof photoGalleries.$inferSelect;

export interface PhotoBooking {
  id: string;
  reference: string;
  userId: string;
  locationId: string;
  status: string;
  items: LineItem[];
}

const bookingColumns = {
  id: bookings.id,
  reference: bookings.reference,
  userId: bookings.userId,
  locationId: bookings.locationId,
  status: bookings.status,
  items: bookings.items,
};

export async function findPhotoBooking(db: DbOrTx, id: string): Promise<PhotoBooking | null> {
  const [row] = await db.select(bookingColumns).from(bookings).where(eq(bookings.id, id));
  return row ?? null;
}

/** The booking row locked until the transaction ends: unlocks of one family are counted one at a time. */
export async function lockPhotoBooking(tx: Tx, id: string): Promise<PhotoBooking | null> {
  const [row] = await tx.select(bookingColumns).from(bookings).where(eq(bookings.id, id)).for('update');
  return row ?? null;
}

/** digitalPhotos of each package and add-on a booking bought (stored: null none, -1 all). */
export async function digitalPhotosOf(db: DbOrTx, items: LineItem[]): Promise<Map<string, number | null>> {
  const ids = items.map((i) => i.id);
  if (!ids.length) return new Map();
  const rows = [
    ...(await db
      .select({ id: packages.id, n: packages.digitalPhotos })
      .from(packages)
      .where(inArray(packages.id, ids))),
    ...(await db.select({ id: addOns.id, n: addOns.digitalPhotos }).from(addOns).where(inArray(addOns.id, ids))),
  ];
  return new Map(rows.map((r) => [r.id, r.n]));
}

export async function insertPhotos(tx: Tx, rows: (typeof photos.$inferInsert)[]): Promise<PhotoRow[]> {
  if (!rows.length) return [];
  return tx.insert(photos).values(rows).returning();
}

/** The gallery's clock starts at the first upload; later uploads leave it alone. */
export async function ensureGallery(tx: Tx, bookingId: string, now: Date, expiresAt: Date): Promise<void> {
  await tx.insert(photoGalleries).values({ bookingId, firstUploadAt: now, expiresAt }).onConflictDoNothing();
}

export async function findGallery(db: DbOrTx, bookingId: string): Promise<GalleryRow | null> {
  const [row] = await db.select().from(photoGalleries).where(eq(photoGalleries.bookingId, bookingId));
  return row ?? null;
}

/** The family opened its gallery (a dispute's evidence of delivery); nothing when it has none yet. */
export async function recordGalleryView(db: DbOrTx, bookingId: string, at: Date): Promise<void> {
  await db
    .update(photoGalleries)
    .set({
      firstViewedAt: sql`coalesce(${photoGalleries.firstViewedAt}, ${at.toISOString()}::timestamptz)`,
      lastViewedAt: at,
      views: sql`${photoGalleries.views} + 1`,
    })
    .where(and(eq(photoGalleries.bookingId, bookingId), isNull(photoGalleries.deletedAt)));
}

export async function photosOfBooking(db: DbOrTx, bookingId: string): Promise<PhotoRow[]> {
  return db.select().from(photos).where(eq(photos.bookingId, bookingId)).orderBy(asc(photos.seq));
}

export async function findPhoto(db: DbOrTx, id: string): Promise<PhotoRow | null> {
  const [row] = await db.select().from(photos).where(eq(photos.id, id));
  return row ?? null;
}

export async function markUnlocked(tx: Tx, bookingId: string, ids: string[], now: Date): Promise<void> {
  if (!ids.length) return;
  await tx
    .update(photos)
    .set({ unlockedAt: now })
    .where(and(eq(photos.bookingId, bookingId), inArray(photos.id, ids), isNull(photos.unlockedAt)));
}

/** Moves a photo from the unmatched tray to a booking; false when it is no longer in the tray. */
export async function assignPhoto(tx: Tx, id: string, bookingId: string): Promise<PhotoRow | null> {
  const [row] = await tx
    .update(photos)
    .set({ bookingId })
    .where(and(eq(photos.id, id), isNull(photos.bookingId)))
    .returning();
  return row ?? null;
}

/** The gallery row locked until the transaction ends (the retention job skips it meanwhile). */
export async function lockGallery(tx: Tx, bookingId: string): Promise<GalleryRow | null> {
  const [row] = await tx.select().from(photoGalleries).where(eq(photoGalleries.bookingId, bookingId)).for('update');
  return row ?? null;
}

export async function extendGallery(db: DbOrTx, bookingId: string, expiresAt: Date): Promise<GalleryRow | null> {
  const [row] = await db
    .update(photoGalleries)
    .set({ expiresAt, reminder7SentAt: null, reminder1SentAt: null })
    .where(and(eq(photoGalleries.bookingId, bookingId), isNull(photoGalleries.deletedAt)))
    .returning();
  return row ?? null;
}

/** Galleries past their end, claimed one at a time (SKIP LOCKED: several processes run the job). */
export async function claimExpiredGallery(tx: Tx, now: Date): Promise<GalleryRow | null> {
  const [row] = await tx
    .select()
    .from(photoGalleries)
    .where(and(isNull(photoGalleries.deletedAt), lte(photoGalleries.expiresAt, now)))
    .limit(1)
    .for('update', { skipLocked: true });
  return row ?? null;
}

export async function deletePhotoRows(tx: Tx, ids: string[]): Promise<void> {
  if (ids.length) await tx.delete(photos).where(inArray(photos.id, ids));
}

/** Which of these ids still have a photo row (the orphan sweep asks for many at once). */
export async function existingPhotoIds(db: DbOrTx, ids: string[]): Promise<Set<string>> {
  if (!ids.length) return new Set();
  const rows = await db.select({ id: photos.id }).from(photos).where(inArray(photos.id, ids));
  return new Set(rows.map((r) => r.id));
}

export async function markGalleryDeleted(tx: Tx, bookingId: string, now: Date): Promise<void> {
  await tx.update(photoGalleries).set({ deletedAt: now }).where(eq(photoGalleries.bookingId, bookingId));
}

/** Unmatched photos nobody assigned within the retention period: same rule as galleries. */
export async function expiredUnmatched(db: DbOrTx, before: Date): Promise<PhotoRow[]> {
  return db
    .select()
    .from(photos)
    .where(and(isNull(photos.bookingId), sql`${photos.createdAt} <= ${before.toISOString()}::timestamptz`))
    .limit(500);
}

/** The live season's price of one more photo (decision 0065); the file may leave it out. */
export async function extraPhotoPriceCents(db: DbOrTx): Promise<number> {
  const result = await db.execute(
    sql`select (season->>'extraPhotoPriceCents')::int as cents from season_versions order by version desc limit 1`,
  );
  const cents = result.rows[0]?.cents;
  return typeof cents === 'number' ? cents : DEFAULT_EXTRA_PHOTO_PRICE_CENTS;
}

/** An unpaid photo order of the booking for exactly these photos (sorted): a retry gets it again. */
export async function openPhotoOrderFor(db: DbOrTx, bookingId: string, sortedPhotoIds: string[]) {
  const [row] = await db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.bookingId, bookingId),
        eq(orders.kind, 'photos'),
        inArray(orders.status, ['pending', 'failed']),
        sql`${orders.photoIds} = ${`{${sortedPhotoIds.join(',')}}`}::uuid[]`,
      ),
    )
    .orderBy(desc(orders.createdAt))
    .limit(1);
  return row;
}
