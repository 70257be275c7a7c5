import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { bookings, orders, refunds } from './bookings';
import { CREDIT_REASONS } from '@kringle/contracts/credit';

/**
 * A family's account credit (migration 0048, decision 0111): the balance is the sum of the entries,
 * each one move with its reason; written only under the family's credit lock (credit.repository.ts).
 */
export const creditEntries = pgTable(
  'credit_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    cents: integer('cents').notNull(),
    reason: text('reason', { enum: CREDIT_REASONS }).notNull(),
    bookingId: uuid('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    refundId: uuid('refund_id')
      .unique()
      .references(() => refunds.id, { onDelete: 'set null' }),
    /** Credit that comes in lasts three years; a spend has none. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('credit_entries_user_idx').on(t.userId, t.createdAt)],
);
