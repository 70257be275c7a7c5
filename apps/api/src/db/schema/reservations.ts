import { sql } from 'drizzle-orm';
import { bigint, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { locations, slots, slotTypes } from './catalogue';

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
    status: text('status', { enum: ['active', 'expired', 'cancelled', 'checked_out'] })
      .notNull()
      .default('active'),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    refreshesLeft: integer('refreshes_left').notNull(),
    /** The booking being rescheduled onto this hold, if any. */
    bookingId: uuid('booking_id'),
    /** Set on a waitlist offer (decision 0028): held for that family, apart from its one ordinary hold. */
    waitlistEntryId: uuid('waitlist_entry_id'),
    /** Where the hold was taken from: a keyed hash of the client's address, never the address (decision 0069). */
    holdAddress: text('hold_address'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // One active hold per customer, even when two tabs race (waitlist offers aside).
    uniqueIndex('reservations_one_active_per_user')
      .on(t.userId)
      .where(sql`status = 'active' AND waitlist_entry_id IS NULL`),
    index('reservations_active_expiry_idx')
      .on(t.expiresAt)
      .where(sql`status = 'active'`),
    // The churn cool-down counts a family's recent releases on every hold (decision 0059).
    index('reservations_user_released_idx')
      .on(t.userId, t.updatedAt)
      .where(sql`status = 'cancelled' AND waitlist_entry_id IS NULL`),
    // Every hold counts its address's live holds on the session's location and day (decision 0069).
    index('reservations_address_live_idx')
      .on(t.holdAddress, t.locationId, t.expiresAt)
      .where(sql`hold_address IS NOT NULL AND status IN ('active', 'checked_out') AND waitlist_entry_id IS NULL`),
  ],
);

export const WAITLIST_STATUSES = ['waiting', 'offered', 'booked', 'left', 'lapsed', 'ended'] as const;

/** A family's place in the line for one location, session type and local date (decision 0028). */
export const waitlistEntries = pgTable(
  'waitlist_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    locationId: uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    slotTypeId: uuid('slot_type_id')
      .notNull()
      .references(() => slotTypes.id, { onDelete: 'cascade' }),
    date: date('date').notNull(),
    status: text('status', { enum: WAITLIST_STATUSES }).notNull().default('waiting'),
    reservationId: uuid('reservation_id').references(() => reservations.id, { onDelete: 'set null' }),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
    offeredAt: timestamp('offered_at', { withTimezone: true }),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex('waitlist_one_live_per_day')
      .on(t.userId, t.locationId, t.slotTypeId, t.date)
      .where(sql`status IN ('waiting', 'offered')`),
    index('waitlist_line_idx')
      .on(t.locationId, t.slotTypeId, t.date, t.seq)
      .where(sql`status = 'waiting'`),
    index('waitlist_offered_idx')
      .on(t.reservationId)
      .where(sql`status = 'offered'`),
    index('waitlist_user_live_idx')
      .on(t.userId)
      .where(sql`status IN ('waiting', 'offered')`),
  ],
);
