import { sql } from 'drizzle-orm';
import { bigint, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import type { BookingDetails as FamilyDetails } from '@kringle/contracts/booking-details';
import { users } from './accounts';
import { locations, slots, slotTypes } from './catalogue';
import { promoCodes } from './promos';
import { reservations } from './reservations';

export interface LineItem {
  id: string;
  /** `photo`: extra digital photos bought from the gallery (a photo order, decision 0065). */
  type: 'package' | 'add_on' | 'photo';
  name: string;
  quantity: number;
  unitPriceCents: number;
  totalCents: number;
}

/** A priced selection for one hold; the server's own arithmetic, never the client's. */
export const carts = pgTable('carts', {
  id: uuid('id').primaryKey().defaultRandom(),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  reservationId: uuid('reservation_id')
    .notNull()
    .references(() => reservations.id, { onDelete: 'cascade' }),
  items: jsonb('items').$type<LineItem[]>().notNull(),
  amountCents: integer('amount_cents').notNull(),
  gstCents: integer('gst_cents').notNull(),
  /** The promo code priced into it (migration 0043) and the cents it took off the goods. */
  promoCodeId: uuid('promo_code_id').references(() => promoCodes.id),
  discountCents: integer('discount_cents').notNull().default(0),
  /** The donation chosen with it (migration 0046): outside GST, paid after the goods. */
  donationCents: integer('donation_cents').notNull().default(0),
  /** The account credit it spends (migration 0049), taken at checkout under the family's credit lock. */
  creditCents: integer('credit_cents').notNull().default(0),
  /** The gift vouchers it spends (migration 0050), each taken at checkout under its row lock; they pay first. */
  voucherParts: jsonb('voucher_parts').$type<{ voucherId: string; cents: number }[]>().notNull().default([]),
  voucherCents: integer('voucher_cents').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const bookings = pgTable(
  'bookings',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Short human reference, e.g. KR-7K3Q9. */
    reference: text('reference').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    locationId: uuid('location_id')
      .notNull()
      .references(() => locations.id),
    slotId: uuid('slot_id')
      .notNull()
      .references(() => slots.id),
    slotTypeId: uuid('slot_type_id')
      .notNull()
      .references(() => slotTypes.id),
    reservationId: uuid('reservation_id').references(() => reservations.id),
    status: text('status', { enum: ['payment_pending', 'completed', 'cancelled', 'payment_failed'] }).notNull(),
    source: text('source', { enum: ['online', 'walkin'] })
      .notNull()
      .default('online'),
    items: jsonb('items').$type<LineItem[]>().notNull(),
    amountCents: integer('amount_cents').notNull(),
    rescheduleCount: integer('reschedule_count').notNull().default(0),
    cancelReason: text('cancel_reason'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    confirmedAt: timestamp('confirmed_at', { withTimezone: true }),
    cancelledAt: timestamp('cancelled_at', { withTimezone: true }),
    /** Set when the day-before reminder is queued, so it goes once whatever the number of processes. */
    reminderSentAt: timestamp('reminder_sent_at', { withTimezone: true }),
    /** Who is coming (issue 18); personal information, deleted after the session (decision 0021). */
    details: jsonb('details').$type<FamilyDetails>(),
    detailsUpdatedAt: timestamp('details_updated_at', { withTimezone: true }),
    /** Set by the retention job when it deletes the details. */
    detailsDeletedAt: timestamp('details_deleted_at', { withTimezone: true }),
    /** Attendance, set by the staff app (issue 19); at most one of the two at a time. */
    checkedInAt: timestamp('checked_in_at', { withTimezone: true }),
    noShowAt: timestamp('no_show_at', { withTimezone: true }),
    /** Set when a no-show's "book again" e-mail is queued after the session (issue 56), so it goes once. */
    noShowMailSentAt: timestamp('no_show_mail_sent_at', { withTimezone: true }),
    /** A walk-in family has no account: its name and optional e-mail (receipt) live here. */
    walkinFirstName: text('walkin_first_name'),
    walkinLastName: text('walkin_last_name'),
    walkinEmail: text('walkin_email'),
    /** How a walk-in was paid at the set (migration 0027); null online. */
    walkinPaidWith: text('walkin_paid_with', { enum: ['cash', 'card', 'eftpos'] }),
  },
  (t) => [
    uniqueIndex('bookings_reference_key').on(t.reference),
    // The last line of defence against a double booking: one confirmed booking per session.
    uniqueIndex('bookings_one_confirmed_per_slot')
      .on(t.slotId)
      .where(sql`status = 'completed'`),
    index('bookings_user_idx').on(t.userId, t.status),
    index('bookings_with_details_idx')
      .on(t.slotId)
      .where(sql`details IS NOT NULL`),
  ],
);

export const orders = pgTable(
  'orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** One order per cart: checking the same cart out again returns this order. */
    cartId: uuid('cart_id').references(() => carts.id),
    status: text('status', { enum: ['pending', 'paid', 'failed', 'refunded'] })
      .notNull()
      .default('pending'),
    /** `booking`: the booking's own order; `photos`: more photos bought later (migration 0028, decision 0065). */
    kind: text('kind', { enum: ['booking', 'photos'] })
      .notNull()
      .default('booking'),
    /** The photos a `photos` order unlocks once paid (sorted); null for a booking's order. */
    photoIds: uuid('photo_ids').array(),
    items: jsonb('items').$type<LineItem[]>().notNull(),
    amountCents: integer('amount_cents').notNull(),
    refundedCents: integer('refunded_cents').notNull().default(0),
    paymentIntentId: text('payment_intent_id'),
    clientSecret: text('client_secret'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    refundedAt: timestamp('refunded_at', { withTimezone: true }),
    /**
     * When the payment reconciliation job should next ask Stripe about this order's PaymentIntent
     * (a webhook may never arrive); null once there is nothing left to ask.
     */
    reconcileAt: timestamp('reconcile_at', { withTimezone: true }),
    /** Set when reconciliation stopped on a permanent Stripe error (e.g. resource_missing); see decision 0020. */
    reconcileError: text('reconcile_error'),
    reconcileFailedAt: timestamp('reconcile_failed_at', { withTimezone: true }),
    /** The name on the tax invoice of a deleted account, kept INVOICE_RETENTION_YEARS (decision 0058). */
    invoiceName: text('invoice_name'),
    /** A booking for a business or school (migration 0037): printed on the tax invoice, kept with its figures. */
    buyerBusinessName: text('buyer_business_name'),
    /** Its ABN, 11 digits (checked by the ABR checksum at checkout). */
    buyerAbn: text('buyer_abn'),
    /**
     * The policy the family accepted at checkout (its numbers, as in force then), when, and the address
     * it paid from (migration 0041): a dispute's evidence. The address is erased with the account and
     * after PURCHASE_IP_DAYS (privacy/purges.repository.ts).
     */
    policyAcceptedAt: timestamp('policy_accepted_at', { withTimezone: true }),
    policyAccepted: jsonb('policy_accepted').$type<Record<string, unknown>>(),
    purchaseIp: text('purchase_ip'),
    /**
     * The cart's promo code and its cents off (migration 0043): `amountCents` is what the order costs
     * (the card's part and the credit's), the goods' total is `amountCents + discountCents` (decision 0106).
     */
    promoCodeId: uuid('promo_code_id').references(() => promoCodes.id),
    /** The code's letters, as the tax invoice prints them. */
    promoCode: text('promo_code'),
    discountCents: integer('discount_cents').notNull().default(0),
    /**
     * The cart's donation (migration 0046, decision 0109), part of `amountCents`, and the charity it goes
     * to as the tax invoice names it. Refunds take the goods first: it goes back only with a full refund.
     */
    donationCents: integer('donation_cents').notNull().default(0),
    donationTo: text('donation_to'),
    /** The part account credit paid (migration 0049, decision 0111): the card pays `amountCents - creditCents`. */
    creditCents: integer('credit_cents').notNull().default(0),
    /** The part gift vouchers paid (migration 0050, decision 0112): the card pays the rest of the credit's. */
    voucherCents: integer('voucher_cents').notNull().default(0),
  },
  (t) => [
    uniqueIndex('orders_cart_key').on(t.cartId),
    uniqueIndex('orders_payment_intent_key').on(t.paymentIntentId),
    index('orders_booking_idx').on(t.bookingId),
    index('orders_reconcile_idx')
      .on(t.reconcileAt)
      .where(sql`reconcile_at is not null`),
    index('orders_invoice_name_idx')
      .on(t.paidAt)
      .where(sql`invoice_name IS NOT NULL`),
  ],
);

/** Stripe event ids already handled, so a webhook delivered twice is processed once. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  receivedAt: timestamp('received_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A refund we owe. Written in the same transaction as the cancellation (one per booking, by the
 * booking's row lock), then sent to Stripe with the refund's id as idempotency key; a job resends
 * pending ones, so a crash or a Stripe outage delays a refund but never loses or doubles it.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    orderId: uuid('order_id')
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    amountCents: integer('amount_cents').notNull(),
    status: text('status', { enum: ['pending', 'succeeded', 'failed'] })
      .notNull()
      .default('pending'),
    reason: text('reason').notNull(),
    /**
     * 'credit': taken as account credit, settled with its entry in the cancellation's transaction (0048);
     * 'voucher': the part gift vouchers paid, back on them the same way (0050).
     */
    method: text('method', { enum: ['card', 'credit', 'voucher'] })
      .notNull()
      .default('card'),
    stripeRefundId: text('stripe_refund_id'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [
    index('refunds_order_idx').on(t.orderId),
    index('refunds_pending_idx')
      .on(t.status)
      .where(sql`status = 'pending'`),
  ],
);

/** Every staff action on a booking (issue 19): who, what, when. */
export const staffActions = pgTable(
  'staff_actions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    bookingId: uuid('booking_id')
      .notNull()
      .references(() => bookings.id, { onDelete: 'cascade' }),
    staffUserId: uuid('staff_user_id').references(() => users.id, { onDelete: 'set null' }),
    staffEmail: text('staff_email').notNull(),
    action: text('action').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    seq: bigint('seq', { mode: 'number' }).generatedAlwaysAsIdentity(),
  },
  (t) => [index('staff_actions_booking_idx').on(t.bookingId, t.at, t.seq)],
);
