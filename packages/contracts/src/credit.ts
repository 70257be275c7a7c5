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

/** The reasons that take credit out of a balance, expiry included. */
export const CREDIT_CONSUMED: readonly CreditReason[] = ['spent', 'returned', 'refunded_to_card', 'expired'];

export interface CreditLot {
  expiresAt: string;
  cents: number;
}

/**
 * What is left of each grant of credit, soonest-expiring first (decision 0115): everything taken
 * out (spent net of returns, sent to a card, expired) fills the soonest grants first. A lot whose
 * time is up and has cents is credit due to be entered as expired.
 */
export function creditLots(
  items: { cents: number; reason: CreditReason; expiresAt: Date | string | null }[],
): CreditLot[] {
  let consumed = 0;
  const grants: CreditLot[] = [];
  for (const e of items) {
    if (CREDIT_CONSUMED.includes(e.reason)) consumed -= e.cents;
    else if (e.cents > 0 && e.expiresAt)
      grants.push({ expiresAt: new Date(e.expiresAt).toISOString(), cents: e.cents });
  }
  grants.sort((a, b) => a.expiresAt.localeCompare(b.expiresAt));
  return grants.map((g) => {
    const taken = Math.min(g.cents, Math.max(0, consumed));
    consumed -= taken;
    return { ...g, cents: g.cents - taken };
  });
}

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
