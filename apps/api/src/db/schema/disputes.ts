import { index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { sql } from 'drizzle-orm';
import type { DisputeEvidence } from '@kringle/contracts/disputes';
import { users } from './accounts';
import { bookings, orders } from './bookings';

/** A chargeback Stripe opened on a paid order (migration 0041, issue 56); the id is Stripe's. */
export const disputes = pgTable(
  'disputes',
  {
    id: text('id').primaryKey(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    chargeId: text('charge_id').notNull(),
    reason: text('reason').notNull(),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    status: text('status').notNull(),
    dueBy: timestamp('due_by', { withTimezone: true }),
    /** The `created` of the last Stripe event applied: an older one arriving late changes nothing. */
    stripeEventAt: timestamp('stripe_event_at', { withTimezone: true }).notNull(),
    evidence: jsonb('evidence').$type<DisputeEvidence>(),
    evidenceStagedAt: timestamp('evidence_staged_at', { withTimezone: true }),
    /** The tax invoice uploaded to Stripe as the `receipt` (migration 0042); null until made. */
    receiptFileId: text('receipt_file_id'),
    submittedAt: timestamp('submitted_at', { withTimezone: true }),
    submittedBy: uuid('submitted_by').references(() => users.id, { onDelete: 'set null' }),
    submitReason: text('submit_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
    closedAt: timestamp('closed_at', { withTimezone: true }),
  },
  (t) => [
    index('disputes_order_idx').on(t.orderId),
    index('disputes_booking_idx').on(t.bookingId),
    index('disputes_unstaged_idx')
      .on(t.createdAt)
      .where(sql`"evidence_staged_at" IS NULL AND "submitted_at" IS NULL`),
  ],
);
