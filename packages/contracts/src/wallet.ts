import { z } from 'zod';

/** GET /bookings/{id}/wallet/google */
export const googleWalletResponseSchema = z
  .object({
    saveUrl: z.url().meta({
      description:
        'https://pay.google.com/gp/v/save/{jwt}: the RS256 JWT carries an event ticket object with the check-in code',
    }),
  })
  .meta({ id: 'GoogleWalletSave' });
export type GoogleWalletResponse = z.infer<typeof googleWalletResponseSchema>;

export const DELAY_MINUTES = { min: 5, max: 120 } as const;
export const DELAY_MESSAGE_MAX = 160;

/** POST /staff/locations/{id}/delay */
export const delayBodySchema = z
  .strictObject({
    minutes: z.number().int().min(DELAY_MINUTES.min).max(DELAY_MINUTES.max),
    message: z.string().trim().max(DELAY_MESSAGE_MAX).optional(),
  })
  .meta({ id: 'DelayRequest' });
export type DelayBody = z.input<typeof delayBodySchema>;

export const delayResultSchema = z
  .object({
    families: z
      .number()
      .int()
      .meta({ description: 'Families told this time (not those told within the last 30 minutes)' }),
  })
  .meta({ id: 'DelayResult' });
export type DelayResult = z.infer<typeof delayResultSchema>;

/** The latest "running late" notice a booking got, on the booking answer while its session has not ended. */
export const bookingDelaySchema = z
  .object({
    minutes: z.number().int(),
    message: z.string().nullable(),
    expectedStartAt: z.iso.datetime().meta({ description: 'The session start plus the delay' }),
    sentAt: z.iso.datetime(),
  })
  .meta({ id: 'BookingDelay' });
export type BookingDelay = z.infer<typeof bookingDelaySchema>;

/** GET /dev/sms (embedded default only) */
export const caughtSmsSchema = z
  .object({ id: z.uuid(), to: z.string(), body: z.string(), at: z.iso.datetime() })
  .meta({ id: 'DevSms' });
export type CaughtSms = z.infer<typeof caughtSmsSchema>;
