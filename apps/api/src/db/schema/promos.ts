import { boolean, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts';

/** A manager's promo code (migration 0043, issue 52); carts and orders keep the cents it took off. */
export const promoCodes = pgTable('promo_codes', {
  id: uuid('id').primaryKey().defaultRandom(),
  code: text('code').notNull().unique(),
  kind: text('kind', { enum: ['percent', 'amount'] }).notNull(),
  value: integer('value').notNull(),
  validFrom: timestamp('valid_from', { withTimezone: true }).notNull(),
  validTo: timestamp('valid_to', { withTimezone: true }).notNull(),
  /** Null: every location (or session type). */
  locationIds: uuid('location_ids').array(),
  slotTypeIds: uuid('slot_type_ids').array(),
  maxUses: integer('max_uses'),
  maxUsesPerFamily: integer('max_uses_per_family').notNull().default(1),
  minSpendCents: integer('min_spend_cents'),
  active: boolean('active').notNull().default(true),
  createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
