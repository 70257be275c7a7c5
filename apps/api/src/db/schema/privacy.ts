import { sql } from 'drizzle-orm';
import { index, pgTable, smallint, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
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

/**
 * A family's choices apart from any booking (migration 0037, decision 0097): news and offers by
 * e-mail, and the brand's showing of its photos. One row a consent given; a withdrawal stamps it.
 */
export const familyConsents = pgTable(
  'family_consents',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['marketing_email', 'photo_showcase'] }).notNull(),
    /** FAMILY_CONSENTS[kind].version: which words the parent agreed to. */
    wordingVersion: text('wording_version').notNull(),
    givenAt: timestamp('given_at', { withTimezone: true }).notNull(),
    /** When a time-limited consent lapses by itself; null: until withdrawn. */
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    withdrawnAt: timestamp('withdrawn_at', { withTimezone: true }),
    withdrawnVia: text('withdrawn_via', { enum: ['account', 'unsubscribe', 'deletion', 'renewed', 'expired'] }),
  },
  (t) => [
    uniqueIndex('family_consents_live_key')
      .on(t.userId, t.kind)
      .where(sql`withdrawn_at IS NULL`),
    index('family_consents_kind_idx')
      .on(t.kind, t.userId)
      .where(sql`withdrawn_at IS NULL`),
  ],
);

/** The key that signs unsubscribe links (migration 0037): one row, made by PostgreSQL. */
export const unsubscribeKeys = pgTable('unsubscribe_keys', {
  id: smallint('id').primaryKey().default(1),
  secret: text('secret').notNull(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
