import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { bookings } from './bookings';

/** A parent's consent to keep a booking's access needs (migration 0020, decision 0058). */
export const consents = pgTable(
  'consents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Null for a walk-in family; kept as null when the account is deleted. */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['access_needs'] }).notNull(),
    /** ACCESS_CONSENT.version: which words the parent agreed to. */
    wordingVersion: text('wording_version').notNull(),
    givenAt: timestamp('given_at', { withTimezone: true }).notNull(),
    /** The staff member who asked, at the set or the support desk; null when the family gave it online. */
    recordedBy: uuid('recorded_by').references(() => users.id, { onDelete: 'set null' }),
  },
  (t) => [index('consents_user_idx').on(t.userId), index('consents_booking_idx').on(t.bookingId)],
);
