import { z } from 'zod';

/** Every machine code the API answers with (API.md). */
export const ERROR_CODES = [
  'VALIDATION_FAILED',
  'NOT_FOUND',
  'RATE_LIMITED',
  'UNAUTHENTICATED',
  'APP_CHECK_REQUIRED',
  'APP_CHECK_INVALID',
  'ATTESTATION_FAILED',
  'EMAIL_NOT_VERIFIED',
  'STAFF_NOT_ALLOWED',
  'EMAIL_IN_USE',
  'INVALID_CREDENTIALS',
  'REDIRECT_NOT_ALLOWED',
  'ALREADY_VERIFIED',
  'INVALID_ACTION_CODE',
  'EXPIRED_ACTION_CODE',
  'WEAK_PASSWORD',
  'WRONG_PASSWORD',
  'SLOT_UNAVAILABLE',
  'SALES_NOT_OPEN',
  'BOOKING_LIMIT',
  'HOLD_EXPIRED',
  'REFRESH_LIMIT',
  'PRICE_MISMATCH',
  'CART_INVALID',
  'RESCHEDULE_WINDOW_CLOSED',
  'RESCHEDULE_LIMIT',
  'DIFFERENT_LOCATION',
  'NOT_CANCELLABLE',
  'NOT_PAID',
  'ALREADY_PAID',
  'NO_REFUND',
  'DETAILS_LOCKED',
  'WAITLIST_NOT_NEEDED',
  'WAITLIST_LIMIT',
  'ALREADY_WAITLISTED',
  'ALREADY_BOOKED',
  'STAFF_ONLY',
  'BOOKING_CANCELLED',
  'BOOKING_NOT_CONFIRMED',
  'WRONG_LOCATION_OR_DAY',
  'SESSION_NOT_STARTED',
  'ALREADY_CHECKED_IN',
  'NOTHING_TO_UNDO',
  'UNDO_WINDOW_CLOSED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'BAD_REQUEST',
  'SERVICE_UNAVAILABLE',
  'INTERNAL',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export const errorBodySchema = z
  .object({
    error: z.string(),
    code: z.enum(ERROR_CODES),
    details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  })
  .meta({ id: 'Error' });
export type ErrorBody = z.infer<typeof errorBodySchema>;
