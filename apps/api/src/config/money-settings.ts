import { z } from 'zod';
import { int } from './env-values';

/**
 * The ATO's ABN check: subtract 1 from the first digit, weigh the digits 10, 1, 3, 5, 7, 9, 11,
 * 13, 15, 17, 19, and the sum is a multiple of 89. A typo on a tax invoice is caught at start.
 */
export function isValidAbn(value: string): boolean {
  const digits = value.replace(/ /g, '').split('').map(Number);
  if (digits.length !== 11 || digits.some((d) => Number.isNaN(d))) return false;
  digits[0]! -= 1;
  const weights = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19];
  return digits.reduce((sum, d, i) => sum + d * weights[i]!, 0) % 89 === 0;
}

/**
 * A placeholder that passes the checksum (so the embedded default's invoices render) and that
 * nobody would take for a real business: production must set its own (checked in loadConfig).
 */
export const PLACEHOLDER_ABN = '10 000 000 000';

/** Stripe and the reconciliation of its payments; config.ts composes them into the environment. */
export const paymentSettings = {
  STRIPE_SECRET_KEY: z.string().startsWith('sk_').optional(),
  STRIPE_PUBLISHABLE_KEY: z.string().startsWith('pk_').optional(),
  STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_').optional(),
  /** Where the SDK reaches Stripe: unset = Stripe itself; the local sandbox's URL on the embedded default. */
  STRIPE_API_URL: z.url().optional(),
  /**
   * Per attempt; the SDK retries (same idempotency key) STRIPE_MAX_NETWORK_RETRIES times, so a request waits at most
   * about (retries + 1) x this.
   */
  STRIPE_TIMEOUT_MS: int(100, 60_000).default(8_000),
  STRIPE_MAX_NETWORK_RETRIES: int(0, 5).default(2),
  /** How long a webhook gets before the reconciliation job asks Stripe about an unpaid order itself. */
  PAYMENT_RECONCILE_GRACE_SECONDS: int(1, 24 * 3600).default(120),
  PAYMENT_RECONCILE_INTERVAL_SECONDS: int(1, 3600).default(30),
};

/** SELLER_ABN, printed on tax invoices (required in production, checked in loadConfig). */
export const sellerAbn = z
  .string()
  .regex(/^\d{2} ?\d{3} ?\d{3} ?\d{3}$/, 'an ABN of 11 digits')
  .refine(isValidAbn, 'not a valid ABN (the ATO checksum fails): check the digits')
  .optional();
