import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { locations, slots } from './catalogue';

/**
 * A customer's timed hold on one session. `status` is stored as active/cancelled/checked_out/
 * expired, but readers derive "expired" from `expires_at` so an unswept hold never looks alive.
 */
export const reservations = pgTable(
  'reservations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    slotId: uuid('slot_id')
      .notNull()
      .references(() => slots.id, { onDelete: 'cascade' }),
    locationId: uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    status: text('status', { enum: ['active', 'expired', 'cancelled', 'checked_out'] }).notNull().default('active'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    refreshesLeft: integer('refreshes_left').notNull(),
    /** The booking being rescheduled onto this hold, if any. */
    bookingId: uuid('booking_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One active hold per customer, even when two tabs race.
    uniqueIndex('reservations_one_active_per_user').on(t.userId).where(sql`status = 'active'`),
    index('reservations_active_expiry_idx').on(t.expiresAt).where(sql`status = 'active'`),
  ],
);
