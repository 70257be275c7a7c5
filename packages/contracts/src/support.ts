import { z } from 'zod';
import { auditEntrySchema } from './audit';
import { bookingDetailsBodySchema } from './booking-details';
import { DATE_PATTERN } from './dates';
import { disputeSchema } from './disputes';
import { orderSchema } from './orders';
import { staffBookingSchema } from './staff';

/** The support desk (issue 34, decision 0051): staff act for a family, always saying why. */
export const REASON_MIN = 3;
export const REASON_MAX = 500;
export const reasonSchema = z
  .string()
  .trim()
  .min(REASON_MIN, `Say why in at least ${REASON_MIN} characters`)
  .max(REASON_MAX, `At most ${REASON_MAX} characters`)
  .meta({ description: 'Why: kept in the audit trail (3–500 characters)' });

export const SEARCH_MIN = 2;
export const familySearchQuerySchema = z.strictObject({
  q: z
    .string()
    .trim()
    .min(SEARCH_MIN, `Type at least ${SEARCH_MIN} characters`)
    .max(100)
    .meta({ description: 'Part of an e-mail, name, phone, booking reference or check-in code' }),
});

export const familyUserSchema = z.object({
  id: z.uuid(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  phone: z.string().nullable(),
});
export const familySearchResultSchema = z
  .object({
    items: z
      .array(z.object({ user: familyUserSchema, bookings: z.array(staffBookingSchema) }))
      .meta({ description: 'At most 20 families, best match first' }),
  })
  .meta({ id: 'FamilySearchResult' });
export type FamilySearchResult = z.infer<typeof familySearchResultSchema>;

export const supportRefundSchema = z
  .object({
    id: z.uuid(),
    orderId: z.uuid(),
    amountCents: z.number().int(),
    status: z.enum(['pending', 'succeeded', 'failed']),
    reason: z.string(),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'SupportRefund' });
export type SupportRefund = z.infer<typeof supportRefundSchema>;

export const sentEmailSchema = z.object({
  subject: z.string(),
  status: z.enum(['pending', 'sent', 'failed']),
  sentAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
});

export const supportBookingSchema = staffBookingSchema
  .extend({
    orders: z.array(orderSchema),
    refunds: z.array(supportRefundSchema),
    emails: z
      .array(sentEmailSchema)
      .meta({ description: "E-mails to the family's address, newest first (at most 50)" }),
    audit: z.array(auditEntrySchema).meta({ description: 'Oldest first' }),
    disputes: z
      .array(disputeSchema)
      .meta({ description: "Chargebacks on the booking's orders, oldest first (GET /staff/disputes lists them all)" }),
    galleryExpiresAt: z.iso
      .datetime()
      .nullable()
      .meta({
        description:
          "When the booking's photos are deleted (POST /staff/bookings/{id}/photos/extend moves it); null with no " +
          'gallery or once deleted',
      }),
  })
  .meta({ id: 'SupportBooking' });
export type SupportBooking = z.infer<typeof supportBookingSchema>;

export const supportRescheduleBodySchema = z.strictObject({ slotId: z.uuid(), reason: reasonSchema });
export const SUPPORT_REFUND_CHOICES = ['policy', 'full', 'none'] as const;
export type SupportRefundChoice = (typeof SUPPORT_REFUND_CHOICES)[number];
export const supportCancelBodySchema = z.strictObject({ reason: reasonSchema, refund: z.enum(SUPPORT_REFUND_CHOICES) });
export const supportRefundBodySchema = z.strictObject({
  amountCents: z.number().int().min(1).max(10_000_000),
  reason: reasonSchema,
});
export const supportResendBodySchema = z.strictObject({ kind: z.enum(['confirmation']) });
export const freeSessionsQuerySchema = z.strictObject({
  date: z
    .string()
    .regex(DATE_PATTERN, 'Use YYYY-MM-DD')
    .meta({ description: "A day in the booking's location's zone" }),
});
export const freeSessionsSchema = z
  .object({
    items: z
      .array(z.object({ id: z.uuid(), startAt: z.iso.datetime(), endAt: z.iso.datetime(), slotTypeName: z.string() }))
      .meta({ description: 'Free sessions of that day a booking can be moved onto now' }),
  })
  .meta({ id: 'FreeSessions' });
export type FreeSessions = z.infer<typeof freeSessionsSchema>;
export const supportDetailsBodySchema = z.strictObject({ details: bookingDetailsBodySchema, reason: reasonSchema });
export const orderParamsSchema = z.strictObject({ id: z.uuid() });
