import { z } from 'zod';

/** Why a family's account credit moved (API.md "Gift vouchers, promo codes, credit, donations"). */
export const CREDIT_REASONS = [
  'cancel_refund',
  'closure_refund',
  'closure_bonus',
  'spent',
  'returned',
  'refunded_to_card',
  'expired',
  // What a gift voucher expired or cancelled since paid, when its booking is refunded (decision 0115).
  'voucher_refund',
] as const;
export type CreditReason = (typeof CREDIT_REASONS)[number];

/** Credit lasts as a gift voucher does: three years (Australian gift-card law). */
export const CREDIT_LIFETIME_YEARS = 3;

export const refundToSchema = z
  .enum(['card', 'credit'])
  .meta({ description: "where the policy's refund goes: the card that paid (default) or account credit" });
export type RefundTo = z.infer<typeof refundToSchema>;

export const creditSchema = z
  .object({
    balanceCents: z.number().int(),
    items: z.array(
      z.object({
        at: z.iso.datetime(),
        cents: z.number().int().meta({ description: 'signed: what came in (+) or went out (-)' }),
        reason: z.enum(CREDIT_REASONS),
        bookingId: z.uuid().nullable(),
        expiresAt: z.iso.datetime().nullable().meta({ description: 'when credit that came in lapses' }),
      }),
    ),
  })
  .meta({ id: 'Credit' });
export type Credit = z.infer<typeof creditSchema>;
