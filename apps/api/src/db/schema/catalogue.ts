import { boolean, date, index, integer, jsonb, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';

/** Loaded from the season file (`npm run season:load`); slugs are the natural keys that make reloads idempotent. */
export const locations = pgTable('locations', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  address: text('address').notNull(),
  suburb: text('suburb').notNull(),
  state: text('state').notNull(),
  /** IANA zone; every local date and time of this location is in it. */
  timezone: text('timezone').notNull(),
  imageUrl: text('image_url').notNull().default(''),
  seasonStart: date('season_start').notNull(),
  seasonEnd: date('season_end').notNull(),
  /** Sessions are on sale from this instant on (season file `salesOpenAt`); null: on sale already. */
  salesOpenAt: timestamp('sales_open_at', { withTimezone: true }),
  sortOrder: integer('sort_order').notNull().default(0),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});

export const slotTypes = pgTable(
  'slot_types',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    locationId: uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    slug: text('slug').notNull(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    durationMinutes: integer('duration_minutes').notNull(),
    sortOrder: integer('sort_order').notNull().default(0),
  },
  (t) => [unique('slot_types_location_slug_key').on(t.locationId, t.slug)],
);

export const packages = pgTable('packages', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  includes: jsonb('includes').$type<string[]>().notNull().default([]),
  priceCents: integer('price_cents').notNull(),
  imageUrl: text('image_url').notNull().default(''),
  maxQuantity: integer('max_quantity').notNull().default(3),
  /** Slot-type slugs this package is offered for; null = every type. */
  slotTypeSlugs: jsonb('slot_type_slugs').$type<string[] | null>(),
  active: boolean('active').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
});

export const addOns = pgTable('add_ons', {
  id: uuid('id').primaryKey().defaultRandom(),
  slug: text('slug').notNull().unique(),
  name: text('name').notNull(),
  description: text('description').notNull(),
  priceCents: integer('price_cents').notNull(),
  maxQuantity: integer('max_quantity').notNull().default(10),
  active: boolean('active').notNull().default(true),
  sortOrder: integer('sort_order').notNull().default(0),
});

/**
 * Sessions and Santa's breaks. A hold is written on the slot row itself by one conditional
 * UPDATE (free, bookable, hold expired or absent), so PostgreSQL's row lock decides every race:
 * two customers can never hold the same session, whatever the number of API processes.
 */
export const slots = pgTable(
  'slots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    locationId: uuid('location_id')
      .notNull()
      .references(() => locations.id, { onDelete: 'cascade' }),
    slotTypeId: uuid('slot_type_id')
      .notNull()
      .references(() => slotTypes.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['session', 'break'] }).notNull(),
    startAt: timestamp('start_at', { withTimezone: true }).notNull(),
    endAt: timestamp('end_at', { withTimezone: true }).notNull(),
    /** Taken out of sale by an operator. */
    blocked: boolean('blocked').notNull().default(false),
    holdReservationId: uuid('hold_reservation_id'),
    holdExpiresAt: timestamp('hold_expires_at', { withTimezone: true }),
    /** The confirmed booking that owns this session. */
    bookingId: uuid('booking_id'),
  },
  (t) => [
    unique('slots_natural_key').on(t.locationId, t.slotTypeId, t.startAt),
    index('slots_location_start_idx').on(t.locationId, t.startAt),
  ],
);
