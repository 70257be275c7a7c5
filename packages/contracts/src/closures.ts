import { z } from 'zod';

/** Closures (issue 35, decision 0055): a manager takes sessions out of sale and remedies each booking. */
const LOCAL_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/;
const localDateTime = z
  .string()
  .regex(LOCAL_DATE_TIME, "Use the location's local date and time, YYYY-MM-DDTHH:mm")
  .refine((v) => !Number.isNaN(Date.parse(`${v}:00Z`)), 'Not a real date and time')
  .meta({ description: "The location's local date-time, YYYY-MM-DDTHH:mm" });

export const CLOSURE_REMEDIES = ['refund', 'offer_move', 'credit'] as const;
export type ClosureRemedy = (typeof CLOSURE_REMEDIES)[number];
export const CLOSURE_OUTCOMES = ['move_offered', 'moved', 'refunded', 'failed'] as const;
export type ClosureOutcome = (typeof CLOSURE_OUTCOMES)[number];

const rangeShape = {
  locationId: z.uuid(),
  from: localDateTime,
  to: localDateTime,
  slotTypeId: z.uuid().optional().meta({ description: 'Only sessions of this type (all types when absent)' }),
  reason: z
    .string()
    .trim()
    .min(3, 'Say why in at least 3 characters')
    .max(200, 'At most 200 characters')
    .meta({ description: 'Why the sessions close; told to the families' }),
};
const laterTo = (v: { from: string; to: string }) => v.from < v.to;
const laterToIssue = { message: 'The end must be after the start', path: ['to'] };

export const closurePreviewBodySchema = z.strictObject(rangeShape).refine(laterTo, laterToIssue);
export type ClosurePreviewBody = z.infer<typeof closurePreviewBodySchema>;

export const closureBodySchema = z
  .strictObject({
    ...rangeShape,
    remedy: z.enum(CLOSURE_REMEDIES).meta({
      description:
        'refund: every family refunded in full; offer_move: each family is held the nearest free session of the same ' +
        'type; credit: what each family paid becomes account credit, plus CLOSURE_CREDIT_BONUS_PERCENT (10 by default)',
    }),
    message: z
      .string()
      .trim()
      .max(2000)
      .default('')
      .meta({ description: 'A few words to the families, added to their e-mail' }),
    confirm: z.string().max(200).meta({ description: "The location's name, typed by the manager" }),
  })
  .refine(laterTo, laterToIssue);
export type ClosureBody = z.input<typeof closureBodySchema>;

export const closureSessionSchema = z.object({
  slotId: z.uuid(),
  slotTypeId: z.uuid(),
  slotTypeName: z.string(),
  startAt: z.iso.datetime(),
  endAt: z.iso.datetime(),
  closed: z.boolean().meta({ description: 'Already closed' }),
});
export const freeSessionSchema = z.object({
  slotId: z.uuid(),
  locationId: z.uuid(),
  locationName: z.string(),
  slotTypeName: z.string(),
  startAt: z.iso.datetime(),
});

export const closurePreviewSchema = z
  .object({
    sessions: z.array(closureSessionSchema),
    bookings: z.array(
      z.object({
        bookingId: z.uuid(),
        reference: z.string(),
        status: z.enum(['payment_pending', 'payment_failed', 'completed']),
        paidCents: z.number().int(),
      }),
    ),
    refundTotalCents: z.number().int(),
    creditBonusPercent: z
      .number()
      .int()
      .meta({ description: "the credit remedy's bonus on what was paid (CLOSURE_CREDIT_BONUS_PERCENT)" }),
    alternatives: z
      .array(freeSessionSchema)
      .meta({ description: 'Free sessions of the same types nearest in time, this location first (at most 10)' }),
  })
  .meta({ id: 'ClosurePreview' });
export type ClosurePreview = z.infer<typeof closurePreviewSchema>;

export const closureCreatedSchema = z.object({ id: z.uuid() }).meta({ id: 'ClosureCreated' });
export const closureParamsSchema = z.strictObject({ id: z.uuid() });

export const closureSchema = z
  .object({
    id: z.uuid(),
    status: z.enum(['running', 'done']),
    locationId: z.uuid(),
    reason: z.string(),
    remedy: z.enum(CLOSURE_REMEDIES),
    sessions: z.number().int(),
    total: z.number().int(),
    done: z.number().int(),
    outcomes: z.array(
      z.object({
        bookingId: z.uuid(),
        reference: z.string(),
        outcome: z.enum(CLOSURE_OUTCOMES).nullable().meta({ description: 'null: not handled yet' }),
        detail: z.string(),
      }),
    ),
  })
  .meta({ id: 'Closure' });
export type Closure = z.infer<typeof closureSchema>;

/** On a booking whose session a closure took away. */
export const bookingClosureSchema = z
  .object({
    reason: z.string(),
    offer: z
      .object({
        slotId: z.uuid(),
        startAt: z.iso.datetime(),
        expiresAt: z.iso.datetime(),
        locationName: z.string(),
        refundCents: z
          .number()
          .int()
          .meta({
            description:
              "What POST /bookings/{id}/closure/refund gives back: all that is left to refund on the booking's order " +
              'after earlier refunds',
          }),
      })
      .nullable()
      .meta({ description: 'The replacement held for the family, while it can be accepted' }),
  })
  .meta({ id: 'BookingClosure' });
export type BookingClosure = z.infer<typeof bookingClosureSchema>;
