import { z } from 'zod';
import { calendarDateSchema, DATE_PATTERN } from './dates';
import { CURRENCY } from './money';
import { SLOT_FILTERS, SLOT_STATUSES } from './statuses';

export const slotTypeSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    description: z.string(),
    durationMinutes: z.number().int(),
    allowsPets: z.boolean().meta({ description: 'Pets may come (pet nights): details may list pets' }),
  })
  .meta({ id: 'SlotType' });

export const locationSchema = z
  .object({
    id: z.uuid(),
    name: z.string(),
    address: z.string(),
    suburb: z.string(),
    state: z.string(),
    timezone: z.string().meta({ description: 'IANA time zone; local dates and times of this location are in it' }),
    imageUrl: z.string(),
    seasonStart: z.string().regex(DATE_PATTERN),
    seasonEnd: z.string().regex(DATE_PATTERN),
    salesOpenAt: z.iso.datetime().nullable().meta({ description: 'when bookings open (an instant); null: on sale' }),
    queueOpensAt: z.iso.datetime().nullable().optional().meta({
      description:
        "when the location's waiting room opens (fair start, decision 0053); null or absent: no waiting room",
    }),
    slotTypes: z.array(slotTypeSchema),
  })
  .meta({ id: 'Location' });
export type Location = z.infer<typeof locationSchema>;
export const locationListSchema = z.object({ items: z.array(locationSchema) });

export const packageSchema = z
  .object({
    id: z.uuid(),
    type: z.literal('package'),
    name: z.string(),
    description: z.string(),
    includes: z.array(z.string()),
    priceCents: z.number().int(),
    currency: z.literal(CURRENCY),
    imageUrl: z.string(),
    maxQuantity: z.number().int(),
  })
  .meta({ id: 'Package' });
export type Package = z.infer<typeof packageSchema>;
export const packageListSchema = z.object({ items: z.array(packageSchema) });
export const packagesQuerySchema = z.strictObject({ locationId: z.uuid().optional(), slotTypeId: z.uuid().optional() });

export const addOnSchema = z
  .object({
    id: z.uuid(),
    type: z.literal('add_on'),
    name: z.string(),
    description: z.string(),
    priceCents: z.number().int(),
    currency: z.literal(CURRENCY),
    maxQuantity: z.number().int(),
  })
  .meta({ id: 'AddOn' });
export type AddOn = z.infer<typeof addOnSchema>;
export const addOnListSchema = z.object({ items: z.array(addOnSchema) });
export const addOnsQuerySchema = z.strictObject({ locationId: z.uuid().optional() });

/** Availability answers say when the location's bookings open: before then every session is unavailable. */
const salesOpenAt = z.iso
  .datetime()
  .nullable()
  .meta({ description: 'when bookings open at this location; null: on sale' });

const calendarDate = calendarDateSchema;

export const availableDatesQuerySchema = z
  .strictObject({ slotTypeId: z.uuid(), from: calendarDate.optional(), to: calendarDate.optional() })
  .refine((q) => !q.from || !q.to || q.from <= q.to, { message: '`from` must not be after `to`', path: ['to'] });
export const availableDatesSchema = z
  .object({
    timezone: z.string(),
    salesOpenAt,
    items: z.array(
      z.object({
        date: calendarDate,
        available: z.number().int().meta({ description: 'bookable sessions left that day' }),
        sessions: z
          .number()
          .int()
          .meta({
            description:
              'sessions still to come that day (not blocked, after the lead time), bookable or not: 0 is a closed ' +
              'day, ' +
              'available 0 of sessions > 0 a fully booked one (or not on sale yet: see salesOpenAt)',
          }),
      }),
    ),
  })
  .meta({ id: 'AvailableDates' });
export type AvailableDates = z.infer<typeof availableDatesSchema>;

export const slotSchema = z
  .object({
    id: z.uuid(),
    slotTypeId: z.uuid(),
    kind: z.enum(['session', 'break']),
    startAt: z.iso.datetime(),
    endAt: z.iso.datetime(),
    status: z.enum(SLOT_STATUSES),
  })
  .meta({ id: 'Slot' });
export type Slot = z.infer<typeof slotSchema>;

export const availableSlotsQuerySchema = z.strictObject({
  date: calendarDate,
  slotTypeId: z.uuid().optional(),
  filter: z.enum(SLOT_FILTERS).default('all'),
});
export const availableSlotsSchema = z
  .object({ timezone: z.string(), salesOpenAt, items: z.array(slotSchema) })
  .meta({ id: 'AvailableSlots' });
/** GET one slot: the slot, and when its location's bookings open. */
export const slotAnswerSchema = slotSchema.extend({ salesOpenAt }).meta({ id: 'SlotAnswer' });
export type SlotAnswer = z.infer<typeof slotAnswerSchema>;
export type AvailableSlots = z.infer<typeof availableSlotsSchema>;

export const locationParamsSchema = z.strictObject({ id: z.uuid() });
export const slotParamsSchema = z.strictObject({ id: z.uuid(), slotId: z.uuid() });
