import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export interface MailAttachment {
  filename: string;
  contentType: string;
  /** Base64 content. */
  content: string;
  /** Content-ID of an inline image the HTML shows as `cid:…`. */
  cid?: string;
}

/**
 * Transactional outbox: a row is written in the same transaction as the change that causes the
 * mail, and the outbox job sends it with retries (SKIP LOCKED, so several processes can run it).
 */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    subject: text('subject').notNull(),
    html: text('html').notNull(),
    text: text('text').notNull(),
    attachments: jsonb('attachments').$type<MailAttachment[]>().notNull().default([]),
    status: text('status', { enum: ['pending', 'sent', 'failed'] })
      .notNull()
      .default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    /**
     * Set only when an unverified account moved to another address (decision 0068): the mail it
     * had at the old one stays the family's in its export and deletion, and no longer joins
     * whoever registers that address next. Null: the mail belongs to whoever has `to_address`.
     */
    userId: uuid('user_id'),
    /** Extra header lines (migration 0037): List-Unsubscribe and List-Unsubscribe-Post on promotional mail. */
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('mail_outbox_sent_idx')
      .on(t.sentAt)
      .where(sql`status = 'sent'`),
    index('mail_outbox_user_idx')
      .on(t.userId)
      .where(sql`user_id is not null`),
  ],
);

/** Messages received by the embedded SMTP catcher (development mailbox; never in production). */
export const devMailbox = pgTable(
  'dev_mailbox',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    toAddress: text('to_address').notNull(),
    fromAddress: text('from_address').notNull().default(''),
    subject: text('subject').notNull().default(''),
    text: text('text').notNull().default(''),
    html: text('html').notNull().default(''),
    /** The list headers as received (migration 0037), so a test or a developer sees the unsubscribe lines. */
    headers: jsonb('headers').$type<Record<string, string>>().notNull().default({}),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('dev_mailbox_to_idx').on(t.toAddress, t.createdAt), index('dev_mailbox_created_idx').on(t.createdAt)],
);
