import { sql } from 'drizzle-orm';
import { bigint, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { bookings } from './bookings';
import { locations, slots, slotTypes } from './catalogue';
import { CLOSURE_OUTCOMES, CLOSURE_REMEDIES } from '@kringle/contracts/closures';

/**
 * Sessions of one location taken out of sale, and the remedy each booking on them gets (migration 0018, decision 0055).
 */
export const closures = pgTable(
  'closures',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    locationId: uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    slotTypeId: uuid('slot_type_id').references(() => slotTypes.id, { onDelete: 'cascade' }),
    fromAt: timestamp('from_at', { withTimezone: true }).notNull(),
    toAt: timestamp('to_at', { withTimezone: true }).notNull(),
    reason: text('reason').notNull(),
    message: text('message').notNull().default(''),
    remedy: text('remedy', { enum: CLOSURE_REMEDIES }).notNull(),
    status: text('status', { enum: ['running', 'done'] })
      .notNull()
      .default('running'),
    sessions: integer('sessions').notNull().default(0),
    createdBy: uuid('created_by').notNull(),
    idempotencyKey: text('idempotency_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
  },
  (t) => [
    uniqueIndex('closures_idempotency_idx')
      .on(t.createdBy, t.idempotencyKey)
      .where(sql`idempotency_key IS NOT NULL`),
    index('closures_running_idx')
      .on(t.createdAt)
      .where(sql`status = 'running'`),
  ],
);

/** One booking of a closure: null outcome = not handled yet (the job's claim). Its id is also the offer's hold id. */
export const closureBookings = pgTable(
  'closure_bookings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    closureId: uuid('closure_id')
      .notNull()
      .references(() => closures.id, { onDelete: 'cascade' }),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    outcome: text('outcome', { enum: CLOSURE_OUTCOMES }),
    detail: text('detail').notNull().default(''),
    offerSlotId: uuid('offer_slot_id').references(() => slots.id, { onDelete: 'set null' }),
    offerExpiresAt: timestamp('offer_expires_at', { withTimezone: true }),
    handledAt: timestamp('handled_at', { withTimezone: true }),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (t) => [
    uniqueIndex('closure_bookings_one_idx').on(t.closureId, t.bookingId),
    index('closure_bookings_booking_idx').on(t.bookingId),
    index('closure_bookings_todo_idx')
      .on(t.closureId, t.seq)
      .where(sql`outcome IS NULL`),
    index('closure_bookings_offers_idx')
      .on(t.offerExpiresAt)
      .where(sql`outcome = 'move_offered'`),
  ],
);
