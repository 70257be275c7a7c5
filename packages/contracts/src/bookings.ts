import { z } from 'zod';
import { bookingClosureSchema } from './closures';
import { bookingDetailsSchema } from './booking-details';
import { refundToSchema } from './credit';
import { lineItemSchema } from './cart';
import { CURRENCY } from './money';
import { BOOKING_SOURCES, BOOKING_STATUSES } from './statuses';
import { bookingDelaySchema } from './wallet';

export const bookingSchema = z
  .object({
    id: z.uuid(),
    reference: z.string(),
    status: z.enum(BOOKING_STATUSES),
    source: z.enum(BOOKING_SOURCES),
    location: z.object({ id: z.uuid(), name: z.string(), address: z.string(), timezone: z.string() }),
    slot: z.object({ id: z.uuid(), startAt: z.iso.datetime(), endAt: z.iso.datetime() }),
    slotType: z.object({
      id: z.uuid(),
      name: z.string(),
      allowsPets: z.boolean().meta({ description: 'Pets may be listed in details (pet nights)' }),
    }),
    items: z.array(lineItemSchema),
    amountCents: z.number().int().meta({ description: 'what was paid (or is to pay), the donation included' }),
    donationCents: z.number().int().meta({ description: 'the donation in amountCents, outside GST (0: none)' }),
    donationTo: z.string().nullable().meta({ description: 'the charity named when it was given' }),
    creditCents: z
      .number()
      .int()
      .meta({ description: 'the part of amountCents account credit paid; the card pays the rest' }),
    currency: z.literal(CURRENCY),
    rescheduleCount: z.number().int(),
    canReschedule: z.boolean(),
    canCancel: z.boolean(),
    refundableCents: z.number().int(),
    createdAt: z.iso.datetime(),
    details: bookingDetailsSchema.nullable().meta({
      description:
        'Who is coming (PUT /bookings/{id}/details); null until given, and again once deleted after the session',
    }),
    checkInCode: z.string().nullable().meta({
      description:
        'The signed code the QR encodes; only for the owner, null unless the booking is confirmed (completed)',
    }),
    holdExpiresAt: z.iso
      .datetime()
      .nullable()
      .meta({
        description:
          'Unpaid (payment_pending, payment_failed) only: when the hold on the session lapses; POST ' +
          '/bookings/{id}/continue-payment works until then',
      }),
    photoCount: z
      .number()
      .int()
      .meta({
        description:
          "Photos in the booking's gallery while it is open (GET /bookings/{id}/photos); 0 before the first upload " +
          'and ' +
          'once the gallery is deleted',
      }),
    closure: bookingClosureSchema.nullable().meta({
      description:
        'Set when the brand closed the session: why, and the replacement held for the family while the offer is open ' +
        '(POST /bookings/{id}/closure/accept or /refund)',
    }),
    delay: bookingDelaySchema.nullable().meta({
      description: 'The set told the family it is running late (POST /staff/locations/{id}/delay); null otherwise',
    }),
  })
  .meta({ id: 'Booking' });
export type Booking = z.infer<typeof bookingSchema>;

export const bookingListSchema = z
  .object({ items: z.array(bookingSchema), nextCursor: z.string().nullable() })
  .meta({ id: 'BookingList' });
export type BookingList = z.infer<typeof bookingListSchema>;
export const bookingListQuerySchema = z.strictObject({ cursor: z.string().max(200).optional() });
export const bookingParamsSchema = z.strictObject({ id: z.uuid() });

/** The body is optional: an empty POST cancels too. */
export const cancelBodySchema = z
  .strictObject({ reason: z.string().trim().max(500).optional(), refundTo: refundToSchema.default('card') })
  .nullish();
export const cancelResultSchema = z
  .object({
    booking: bookingSchema,
    refund: z
      .object({
        id: z.uuid(),
        amountCents: z.number().int(),
        status: z.enum(['pending', 'succeeded', 'failed']),
        refundTo: z.enum(['card', 'credit', 'voucher']).meta({
          description:
            "where this refund went: the card's part, else credit's; 'voucher' when gift vouchers paid it all",
        }),
      })
      .nullable(),
  })
  .meta({ id: 'CancelResult' });
export type CancelResult = z.infer<typeof cancelResultSchema>;
export const rescheduleBodySchema = z.strictObject({ reservationId: z.uuid() });
