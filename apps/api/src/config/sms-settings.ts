import { z } from 'zod';
import { int } from './env-values';

/** Text messages; config.ts composes them into the environment, loadConfig checks the Twilio ones. */
export const smsSettings = {
  /**
   * SMS (decision 0100): `twilio` needs TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and SMS_FROM; unset = the local
   * catcher (not in production).
   */
  SMS_PROVIDER: z.enum(['twilio', 'catcher']).optional(),
  TWILIO_ACCOUNT_SID: z
    .string()
    .regex(/^AC[0-9a-fA-F]{32}$/, 'an account SID, AC followed by 32 hex digits')
    .optional(),
  TWILIO_AUTH_TOKEN: z.string().min(16).optional(),
  /** The sender: an E.164 number or an alphanumeric sender id (up to 11 characters). */
  SMS_FROM: z
    .string()
    .regex(/^(\+[1-9]\d{6,14}|[A-Za-z0-9 ]{1,11})$/, 'an E.164 number or a sender id of up to 11 letters and digits')
    .optional(),
  /** The most messages one number gets in 24 hours. */
  SMS_DAILY_CAP: int(1, 50).default(5),
};
