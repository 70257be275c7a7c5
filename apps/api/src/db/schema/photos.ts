import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { bookings } from './bookings';
import { locations } from './catalogue';

/** A booking's gallery: when it ends and which e-mails went (migration 0017, decision 0054). */
export const photoGalleries = pgTable(
  'photo_galleries',
  {
    bookingId: uuid('booking_id')
      .primaryKey()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    firstUploadAt: timestamp('first_upload_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    readySentAt: timestamp('ready_sent_at', { withTimezone: true }),
    reminder7SentAt: timestamp('reminder_7_sent_at', { withTimezone: true }),
    reminder1SentAt: timestamp('reminder_1_sent_at', { withTimezone: true }),
    extraPhotos: integer('extra_photos').notNull().default(0),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /** The family opening the gallery (migration 0041): a dispute's evidence of delivery. */
    firstViewedAt: timestamp('first_viewed_at', { withTimezone: true }),
    lastViewedAt: timestamp('last_viewed_at', { withTimezone: true }),
    views: integer('views').notNull().default(0),
  },
  (t) => [
    index('photo_galleries_expiry_idx')
      .on(t.expiresAt)
      .where(sql`deleted_at IS NULL`),
  ],
);

/** One photo; its files are in the photo store under keys made from its id (photo-storage.ts). */
export const photos = pgTable(
  'photos',
  {
    id: uuid('id').primaryKey(),
    /** Null: waiting in the location's unmatched tray. */
    bookingId: uuid('booking_id').references(() => bookings.id, { onDelete: 'cascade' }),
    locationId: uuid('location_id')
      .notNull()
      .references(() => locations.id),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    unlockedAt: timestamp('unlocked_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (t) => [
    index('photos_booking_idx').on(t.bookingId, t.seq),
    index('photos_unmatched_idx')
      .on(t.locationId, t.seq)
      .where(sql`booking_id IS NULL`),
  ],
);
