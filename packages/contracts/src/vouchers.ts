import { z } from 'zod';

/**
 * Gift vouchers (issue 52, API.md "Gift vouchers, promo codes, credit, donations", decision 0112):
 * bought by value, claimed into one account, spent over several bookings.
 */
export const VOUCHER_MIN_CENTS = 2000;
export const VOUCHER_MAX_CENTS = 50_000;
export const VOUCHER_STEP_CENTS = 500;
/** The amounts "Give a Santa visit" offers as one tap each; another multiple of $5 too. */
export const SUGGESTED_VOUCHER_CENTS = [3000, 5000, 8000] as const;
/** Australian gift-card law: at least three years from the sale, no fees. */
export const VOUCHER_LIFETIME_YEARS = 3;
export const VOUCHER_SEND_AHEAD_DAYS = 60;
export const VOUCHER_MESSAGE_MAX = 200;
/** At most this many vouchers on one cart. */
export const MAX_CART_VOUCHERS = 3;

/** 32 letters and digits without 0/O and 1/I: 12 of them are 60 bits. */
export const VOUCHER_ALPHABET = '23456789ABCDEFGHJKLMNPQRSTUVWXYZ';
export const VOUCHER_CODE_LENGTH = 12;

/** Upper case, spaces and hyphens dropped; O read as 0's look-alike is not in the alphabet, so it stays wrong. */
export const normalizeVoucherCode = (s: string) => s.toUpperCase().replace(/[\s-]/g, '');
export const formatVoucherCode = (code: string) => code.match(/.{1,4}/g)!.join('-');

/** What a family types: any spacing and case; a wrong code is the lookup's 404, not a 400. */
export const voucherCodeInputSchema = z
  .string()
  .trim()
  .min(1, 'Enter a code')
  .max(40)
  .transform(normalizeVoucherCode)
  .meta({ description: 'XXXX-XXXX-XXXX; case, spaces and hyphens do not matter' });

const isoDate = z.iso.date();

export const buyVoucherBodySchema = z
  .strictObject({
    amountCents: z
      .number()
      .int()
      .min(VOUCHER_MIN_CENTS, 'At least $20')
      .max(VOUCHER_MAX_CENTS, 'At most $500')
      .refine((n) => n % VOUCHER_STEP_CENTS === 0, 'A multiple of $5'),
    recipientName: z.string().trim().min(1, 'Enter who it is for').max(80),
    recipientEmail: z.email('Enter a valid email address').max(254).optional().meta({
      description: 'where its e-mail goes on sendOn; omitted: to the buyer, to pass on',
    }),
    message: z.string().trim().max(VOUCHER_MESSAGE_MAX, `At most ${VOUCHER_MESSAGE_MAX} characters`).optional(),
    sendOn: isoDate
      .optional()
      .meta({ description: `today (default) to +${VOUCHER_SEND_AHEAD_DAYS} days, in the brand's time zone` }),
  })
  .meta({ id: 'BuyVoucherBody' });
export type BuyVoucherBody = z.input<typeof buyVoucherBodySchema>;

export const voucherPurchaseSchema = z
  .object({
    voucherOrderId: z.uuid().meta({ description: "the voucher's id: its receipt and certificate once paid" }),
    amountCents: z.number().int(),
    client_secret: z.string(),
  })
  .meta({ id: 'VoucherPurchase' });
export type VoucherPurchase = z.infer<typeof voucherPurchaseSchema>;

/** Why a voucher's balance moved (its ledger, decision 0112). */
export const VOUCHER_ENTRY_REASONS = ['sold', 'spent', 'returned', 'cancelled', 'expired'] as const;

export const VOUCHER_STATUSES = ['pending', 'active', 'spent', 'expired', 'cancelled'] as const;
export type VoucherStatus = (typeof VOUCHER_STATUSES)[number];

export const voucherSchema = z
  .object({
    id: z.uuid(),
    code: z
      .string()
      .meta({ description: 'XXXX-XXXX-XXXX; masked (••••-••••-AB12) unless bought or claimed by this family' }),
    status: z.enum(VOUCHER_STATUSES).meta({ description: "pending: bought, not yet paid (the buyer's list only)" }),
    amountCents: z.number().int(),
    balanceCents: z.number().int(),
    expiresAt: z.iso.datetime().nullable(),
    recipientName: z.string(),
    sendOn: isoDate,
    sentAt: z.iso.datetime().nullable(),
    bought: z.boolean().meta({ description: 'this family bought it' }),
    claimed: z.boolean().meta({ description: "it is in this family's account" }),
  })
  .meta({ id: 'Voucher' });
export type Voucher = z.infer<typeof voucherSchema>;

export const voucherListSchema = z.object({ items: z.array(voucherSchema) }).meta({ id: 'VoucherList' });
