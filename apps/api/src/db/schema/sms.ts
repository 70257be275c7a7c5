import { sql } from 'drizzle-orm';
import { index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { bookings } from './bookings';

/**
 * The SMS outbox (migration 0039, decision 0100): written in the transaction of the change, like
 * mail_outbox, and sent by the SMS outbox job. `suppressed`: never sent on purpose (STOP, or the
 * number's daily cap), with the reason.
 */
export const smsOutbox = pgTable(
  'sms_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toNumber: text('to_number').notNull(),
    body: text('body').notNull(),
    kind: text('kind', { enum: ['reminder', 'closure', 'move', 'delay'] }).notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    bookingId: uuid('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['pending', 'sent', 'failed', 'suppressed'] })
      .notNull()
      .default('pending'),
    suppressedReason: text('suppressed_reason'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    providerId: text('provider_id'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
  },
  (t) => [
    index('sms_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('sms_outbox_number_idx').on(t.toNumber, t.createdAt),
    index('sms_outbox_user_idx')
      .on(t.userId)
      .where(sql`user_id is not null`),
  ],
);

/** Numbers that replied STOP; START deletes the row. Kept past an account's deletion (the number asked). */
export const smsOptOuts = pgTable('sms_opt_outs', {
  number: text('number').primaryKey(),
  stoppedAt: timestamp('stopped_at', { withTimezone: true }).notNull().defaultNow(),
});

/** What the local SMS catcher received (embedded default only, /dev/sms). */
export const devSms = pgTable(
  'dev_sms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toNumber: text('to_number').notNull(),
    fromNumber: text('from_number').notNull(),
    body: text('body').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('dev_sms_to_idx').on(t.toNumber, t.createdAt)],
);
