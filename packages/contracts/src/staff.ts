import { z } from 'zod';
import { bookingDetailsBodySchema } from './booking-details';
import { bookingSchema } from './bookings';
import { MAX_ADD_ON_QUANTITY, MAX_PACKAGES } from './cart';
import { calendarDateSchema } from './dates';
import { hasHiddenCharacters, HIDDEN_CHARACTERS_MESSAGE } from './names';
import { SLOT_FILTERS } from './statuses';

/** The staff app (issue 19, API.md "Additions" → "Staff"). */
export const STAFF_ACTIONS = ['check_in', 'undo_check_in', 'no_show', 'undo_no_show', 'walk_in'] as const;
export type StaffAction = (typeof STAFF_ACTIONS)[number];
export const STAFF_ACTION_LABELS: Record<StaffAction, string> = {
  check_in: 'Checked in',
  undo_check_in: 'Check-in undone',
  no_show: 'Marked no-show',
  undo_no_show: 'No-show undone',
  walk_in: 'Sold as a walk-in',
};

/** What the run sheet shows for a family: derived from the booking and its attendance. */
export const ATTENDANCE = ['confirmed', 'checked_in', 'no_show', 'cancelled'] as const;
export type Attendance = (typeof ATTENDANCE)[number];
export const ATTENDANCE_LABELS: Record<Attendance, string> = {
  confirmed: 'Confirmed',
  checked_in: 'Checked in',
  no_show: 'No-show',
  cancelled: 'Cancelled',
};

/** A run sheet slot's state, as the staff app and the CSV word a row without a family. */
export const SLOT_STATES = ['booked', 'held', 'free', 'closed', 'break'] as const;
export const SLOT_STATE_LABELS: Record<(typeof SLOT_STATES)[number], string> = {
  booked: 'Booked',
  held: 'Being booked online',
  free: 'Free',
  closed: 'Closed',
  break: 'Break',
};

/** How a walk-in family paid at the set (issue 37): the end-of-day totals count each apart. */
export const PAID_WITH = ['cash', 'card', 'eftpos'] as const;
export type PaidWith = (typeof PAID_WITH)[number];
export const PAID_WITH_LABELS: Record<PaidWith, string> = { cash: 'Cash', card: 'Card', eftpos: 'EFTPOS' };

/** A check-in can be undone this long after it was made (a wrong family tapped). */
export const CHECK_IN_UNDO_SECONDS = 60;

export const staffBookingSchema = bookingSchema
  .extend({
    customer: z
      .object({ firstName: z.string(), lastName: z.string(), email: z.string().nullable() })
      .meta({ description: 'The account holder, or the walk-in family as entered' }),
    checkedInAt: z.iso.datetime().nullable(),
    noShowAt: z.iso.datetime().nullable(),
    attendance: z
      .enum(ATTENDANCE)
      .meta({ description: 'confirmed, checked_in, no_show or cancelled: what the run sheet shows' }),
    paidWith: z.enum(PAID_WITH).nullable().meta({
      description:
        'A walk-in: how it was paid at the set; null for online bookings (and walk-ins sold before it was recorded)',
    }),
    actions: z
      .array(z.object({ at: z.iso.datetime(), staffEmail: z.string(), action: z.enum(STAFF_ACTIONS) }))
      .meta({ description: 'Every staff action on this booking, oldest first' }),
  })
  .meta({ id: 'StaffBooking' });
export type StaffBooking = z.infer<typeof staffBookingSchema>;

export const runSheetQuerySchema = z.strictObject({
  locationId: z.uuid(),
  date: calendarDateSchema.optional().meta({ description: "A day in the location's zone; default today there" }),
  filter: z.enum(SLOT_FILTERS).default('all').meta({ description: 'all: sessions and breaks; break: breaks only' }),
});
export const runSheetCsvQuerySchema = runSheetQuerySchema.omit({ filter: true });

export const runSheetSlotSchema = z.object({
  id: z.uuid(),
  kind: z.enum(['session', 'break']),
  startAt: z.iso.datetime(),
  endAt: z.iso.datetime(),
  slotType: z.object({
    id: z.uuid(),
    slug: z.string(),
    name: z.string(),
    allowsPets: z
      .boolean()
      .meta({ description: 'Pets may come (pet nights): the walk-in form asks about them only then' }),
  }),
  state: z.enum(SLOT_STATES).meta({ description: 'free: can be sold as a walk-in now; closed: blocked or over' }),
});
export type RunSheetSlot = z.infer<typeof runSheetSlotSchema>;

const paidTotalSchema = z.object({ bookings: z.number().int(), amountCents: z.number().int() });
export type PaidTotal = z.infer<typeof paidTotalSchema>;

export const runSheetCountsSchema = z.object({
  sessions: z.number().int(),
  breaks: z.number().int(),
  free: z.number().int(),
  booked: z.number().int().meta({ description: 'Confirmed bookings (including checked in and no-shows)' }),
  checkedIn: z.number().int(),
  noShow: z.number().int(),
  cancelled: z.number().int(),
  people: z
    .number()
    .int()
    .meta({ description: 'Children and adults expected across confirmed bookings that gave details' }),
  paidWith: z.object({ cash: paidTotalSchema, card: paidTotalSchema, eftpos: paidTotalSchema }).meta({
    description: "The day's walk-ins by how they were paid (cancelled ones left out), for the end-of-day totals",
  }),
});
export type RunSheetCounts = z.infer<typeof runSheetCountsSchema>;

export const runSheetSchema = z
  .object({
    location: z.object({ id: z.uuid(), name: z.string(), address: z.string(), timezone: z.string() }),
    date: z.string(),
    timezone: z.string(),
    counts: runSheetCountsSchema,
    items: z.array(z.object({ slot: runSheetSlotSchema, booking: staffBookingSchema.nullable() })).meta({
      description:
        'In time order: a row per booking of a slot, or one with booking null when it has none; a slot whose ' +
        'bookings were all cancelled also gets the null row (its state says whether it can be sold again)',
    }),
  })
  .meta({ id: 'RunSheet' });
export type RunSheet = z.infer<typeof runSheetSchema>;

const locationId = z.uuid();
export const checkInBodySchema = z
  .union([
    z.strictObject({
      locationId,
      code: z.string().trim().min(1).max(64).meta({ description: 'What the QR code holds' }),
    }),
    z.strictObject({
      locationId,
      reference: z.string().trim().min(1).max(16).meta({ description: 'The booking reference, e.g. KR-7K3Q9' }),
    }),
  ])
  .meta({ id: 'CheckInBody' });
export type CheckInBody = z.infer<typeof checkInBodySchema>;

export const staffBookingParamsSchema = z.strictObject({ id: z.uuid() });

const line = (max: number) => z.strictObject({ id: z.uuid(), quantity: z.number().int().min(1).max(max).default(1) });
// Walk-in names reach the run sheet and its CSV like account names: the same hidden characters are refused.
const name = (what: string) =>
  z
    .string()
    .trim()
    .min(1, `Enter the ${what}.`)
    .max(60, `The ${what}: at most 60 characters.`)
    .refine((v) => !hasHiddenCharacters(v), HIDDEN_CHARACTERS_MESSAGE);

export const walkInBodySchema = z
  .strictObject({
    slotId: z.uuid(),
    firstName: name('first name'),
    lastName: name('last name'),
    email: z
      .email('Enter a valid e-mail address, or leave it empty.')
      .max(254)
      .optional()
      .meta({ description: 'For the receipt and tax invoice' }),
    details: bookingDetailsBodySchema,
    packages: z.array(line(MAX_PACKAGES)).min(1, 'Choose at least one package').max(MAX_PACKAGES),
    addOns: z.array(line(MAX_ADD_ON_QUANTITY)).max(20).default([]),
    paidWith: z
      .enum(PAID_WITH, { error: 'Choose how the family paid: cash, card or EFTPOS.' })
      .meta({ description: 'How the family paid at the set' }),
  })
  .refine((b) => b.packages.reduce((n, p) => n + p.quantity, 0) <= MAX_PACKAGES, {
    message: `At most ${MAX_PACKAGES} packages in total`,
    path: ['packages'],
  })
  .refine((b) => new Set([...b.packages, ...b.addOns].map((i) => i.id)).size === b.packages.length + b.addOns.length, {
    message: 'Each item once, with a quantity',
    path: ['packages'],
  })
  .meta({ id: 'WalkInBody' });
export type WalkInBody = z.input<typeof walkInBodySchema>;

/** What the staff app needs to pick a place and sell: locations, packages and add-ons on sale. */
const product = { id: z.uuid(), name: z.string(), priceCents: z.number().int(), maxQuantity: z.number().int() };
export const staffCatalogueSchema = z
  .object({
    locations: z.array(
      z.object({
        id: z.uuid(),
        name: z.string(),
        address: z.string(),
        timezone: z.string(),
        queueOpensAt: z.iso
          .datetime()
          .nullable()
          .meta({
            description:
              "When the location's waiting room opens (decision 0053); null: it has none, so GET " +
              '/staff/queue/{locationId} would answer 404',
          }),
      }),
    ),
    packages: z.array(
      z.object({
        ...product,
        slotTypeSlugs: z
          .array(z.string())
          .nullable()
          .meta({ description: 'Session types it is sold for; null for all' }),
      }),
    ),
    addOns: z.array(z.object(product)),
  })
  .meta({ id: 'StaffCatalogue' });
export type StaffCatalogue = z.infer<typeof staffCatalogueSchema>;
