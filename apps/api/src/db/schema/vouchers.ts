import { date, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';
import { bookings, orders, refunds } from './bookings';
import { mailOutbox } from './mail';
import { VOUCHER_ENTRY_REASONS } from '@kringle/contracts/vouchers';

/**
 * A gift voucher (migration 0050, decision 0112). Its code is never stored, only its hash; the
 * server derives it again from the id for the buyer and the account that claimed it.
 * `status` is the sale's: what is spent or expired is read from the entries and `expiresAt`.
 */
export const vouchers = pgTable(
  'vouchers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    codeHash: text('code_hash').notNull().unique(),
    buyerUserId: uuid('buyer_user_id').references(() => users.id, { onDelete: 'set null' }),
    ownerUserId: uuid('owner_user_id').references(() => users.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    recipientName: text('recipient_name').notNull(),
    recipientEmail: text('recipient_email'),
    message: text('message'),
    sendOn: date('send_on', { mode: 'string' }).notNull(),
    status: text('status', { enum: ['pending', 'paid', 'failed', 'cancelled'] })
      .notNull()
      .default('pending'),
    paymentIntentId: text('payment_intent_id').unique(),
    clientSecret: text('client_secret'),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    claimedAt: timestamp('claimed_at', { withTimezone: true }),
    /** The recipient's e-mail in the outbox; `sentAt` is set when it goes (a trigger on mail_outbox). */
    mailId: uuid('mail_id').references(() => mailOutbox.id, { onDelete: 'set null' }),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    cancelReason: text('cancel_reason'),
    /** The card refund of the unspent balance at a cancel, sent after its commit with this id as key. */
    refundCents: integer('refund_cents'),
    stripeRefundId: text('stripe_refund_id'),
    /** When the reconciliation job next reads its PaymentIntent (a webhook that never came); null: settled. */
    reconcileAt: timestamp('reconcile_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('vouchers_owner_idx').on(t.ownerUserId), index('vouchers_buyer_idx').on(t.buyerUserId)],
);

/** A voucher's balance is the sum of its entries; written only under the voucher's row lock. */
export const voucherEntries = pgTable(
  'voucher_entries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    voucherId: uuid('voucher_id')
      .notNull()
      .references(() => vouchers.id, { onDelete: 'cascade' }),
    cents: integer('cents').notNull(),
    reason: text('reason', { enum: VOUCHER_ENTRY_REASONS }).notNull(),
    orderId: uuid('order_id').references(() => orders.id, { onDelete: 'set null' }),
    bookingId: uuid('booking_id').references(() => bookings.id, { onDelete: 'set null' }),
    refundId: uuid('refund_id').references(() => refunds.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('voucher_entries_voucher_idx').on(t.voucherId), index('voucher_entries_order_idx').on(t.orderId)],
);

/** Wrong codes tried, by account and by address: 10 an hour of either answers 429 (API.md). */
export const voucherCodeMisses = pgTable(
  'voucher_code_misses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('voucher_code_misses_key_idx').on(t.key, t.at)],
);
