import { z } from 'zod';

/**
 * Promo codes (issue 52, API.md "Gift vouchers, promo codes, credit, donations"): managers make
 * them, the server prices every cart with at most one, never below zero (decision 0106).
 */

export const PROMO_KINDS = ['percent', 'amount'] as const;
export type PromoKind = (typeof PROMO_KINDS)[number];

/** Why a code does not apply: the detail's message of a 409 PROMO_INVALID, for the client to branch on. */
export const PROMO_REFUSALS = ['unknown', 'not_started', 'expired', 'not_here', 'used_up', 'min_spend'] as const;
export type PromoRefusal = (typeof PROMO_REFUSALS)[number];

/** Letters, digits and hyphens; stored and compared in capitals, so "xmas-10" is "XMAS-10". */
export const PROMO_CODE_PATTERN = /^[A-Z0-9][A-Z0-9-]{2,19}$/;
const MAX_AMOUNT_OFF_CENTS = 50_000;

/** What a family types: trimmed and in capitals before it is looked up. */
export const promoCodeInputSchema = z
  .string()
  .trim()
  .min(1, 'Enter a code')
  .max(40)
  .transform((s) => s.toUpperCase());

const codeSchema = promoCodeInputSchema.pipe(
  z.string().regex(PROMO_CODE_PATTERN, '3 to 20 letters, digits or hyphens, starting with a letter or digit'),
);
const idList = z.array(z.uuid()).max(50);

const promoFields = {
  code: codeSchema,
  kind: z.enum(PROMO_KINDS),
  value: z.number().int().min(1).meta({ description: 'percent: 1-100; amount: cents off, 100-50000' }),
  validFrom: z.iso.datetime({ offset: true }),
  validTo: z.iso.datetime({ offset: true }),
  locationIds: idList.nullable().optional().meta({ description: 'only at these locations; null or omitted: all' }),
  slotTypeIds: idList.nullable().optional().meta({ description: 'only for these session types; null or omitted: all' }),
  maxUses: z.number().int().min(1).max(1_000_000).nullable().optional().meta({ description: 'in all; null: no limit' }),
  maxUsesPerFamily: z.number().int().min(1).max(100).default(1),
  minSpendCents: z.number().int().min(0).max(1_000_000).nullable().optional(),
  active: z.boolean().default(true),
};

export const PROMO_VALUE_MESSAGE = 'A percent is 1 to 100; an amount off is $1 to $500, in cents';
/** A percent of 1-100, or 100-50000 cents off. */
export const promoValueFits = (kind: PromoKind, value: number) =>
  kind === 'percent' ? value >= 1 && value <= 100 : value >= 100 && value <= MAX_AMOUNT_OFF_CENTS;

type ValueCheck = { kind?: PromoKind; value?: number; validFrom?: string; validTo?: string };
const valueFits = (b: ValueCheck) => b.kind === undefined || b.value === undefined || promoValueFits(b.kind, b.value);
const datesInOrder = (b: ValueCheck) => !b.validFrom || !b.validTo || Date.parse(b.validTo) > Date.parse(b.validFrom);

export const promoCodeBodySchema = z
  .strictObject(promoFields)
  .refine(valueFits, { message: PROMO_VALUE_MESSAGE, path: ['value'] })
  .refine(datesInOrder, { message: 'The end must come after the start', path: ['validTo'] });
export type PromoCodeBody = z.input<typeof promoCodeBodySchema>;

/** Every field optional; the code itself cannot change once families may have it. */
export const promoCodePatchSchema = z
  .strictObject({
    kind: promoFields.kind.optional(),
    value: promoFields.value.optional(),
    validFrom: promoFields.validFrom.optional(),
    validTo: promoFields.validTo.optional(),
    locationIds: promoFields.locationIds,
    slotTypeIds: promoFields.slotTypeIds,
    maxUses: promoFields.maxUses,
    maxUsesPerFamily: z.number().int().min(1).max(100).optional(),
    minSpendCents: promoFields.minSpendCents,
    active: z.boolean().optional(),
  })
  .refine((b) => Object.keys(b).length > 0, { message: 'Nothing to change', path: [] });
export type PromoCodePatch = z.input<typeof promoCodePatchSchema>;

export const promoCodeSchema = z
  .object({
    id: z.uuid(),
    code: z.string(),
    kind: z.enum(PROMO_KINDS),
    value: z.number().int(),
    validFrom: z.iso.datetime(),
    validTo: z.iso.datetime(),
    locationIds: z.array(z.uuid()).nullable(),
    slotTypeIds: z.array(z.uuid()).nullable(),
    maxUses: z.number().int().nullable(),
    maxUsesPerFamily: z.number().int(),
    minSpendCents: z.number().int().nullable(),
    active: z.boolean(),
    uses: z
      .number()
      .int()
      .meta({ description: 'bookings paid or being paid with it (a lapsed or refunded one gives its use back)' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'PromoCode' });
export type PromoCode = z.infer<typeof promoCodeSchema>;

export const promoCodeListSchema = z.object({ items: z.array(promoCodeSchema) });
export const promoCodeParamsSchema = z.strictObject({ id: z.uuid() });

/** A percent discount is round(goods × value / 100); neither kind takes the goods below zero. */
export function promoDiscountCents(kind: PromoKind, value: number, goodsCents: number): number {
  const off = kind === 'percent' ? Math.round((goodsCents * value) / 100) : value;
  return Math.min(off, goodsCents);
}
