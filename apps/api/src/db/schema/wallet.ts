import { check, index, integer, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import { bookings } from './bookings';
import { locations } from './catalogue';

/**
 * Apple Wallet devices that registered a booking's pass (migration 0039, decision 0099). A pass's
 * version is its booking's updated_at; `pushedVersion` is the one the last push told the device of.
 */
export const walletRegistrations = pgTable(
  'wallet_registrations',
  {
    deviceLibraryId: text('device_library_id').notNull(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    pushToken: text('push_token').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    pushedVersion: timestamp('pushed_version', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.deviceLibraryId, t.bookingId] }),
    index('wallet_registrations_booking_idx').on(t.bookingId),
  ],
);

/**
 * Bookings whose Google Wallet save link was given (migration 0047): `syncedVersion` is the booking
 * version Google last got, so each later change is sent once as a PATCH (google-wallet-sync.job.ts).
 */
export const googleWalletObjects = pgTable('google_wallet_objects', {
  bookingId: uuid('booking_id')
    .primaryKey()
    .references(() => bookings.id, { onDelete: 'cascade' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  syncedVersion: timestamp('synced_version', { withTimezone: true }).notNull(),
});

/** "Santa is running late": a row per booking told (at most one a booking per 30 minutes). */
export const delayNotices = pgTable(
  'delay_notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    locationId: uuid('location_id')
      .notNull()
      .references(() => locations.id),
    minutes: integer('minutes').notNull(),
    message: text('message'),
    expectedStartAt: timestamp('expected_start_at', { withTimezone: true }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
    sentBy: uuid('sent_by'),
  },
  (t) => [
    index('delay_notices_booking_idx').on(t.bookingId, t.sentAt),
    check('delay_notices_minutes_check', sql`${t.minutes} between 5 and 120`),
  ],
);
