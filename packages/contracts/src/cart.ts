import { z } from 'zod';
import { CURRENCY } from './money';
import { ITEM_TYPES } from './statuses';
import { businessBuyerSchema } from './abn';
import { promoCodeInputSchema } from './promos';
import { donationCentsSchema } from './donations';
import { MAX_CART_VOUCHERS, voucherCodeInputSchema } from './vouchers';

export const MAX_PACKAGES = 3;
export const MAX_ADD_ON_QUANTITY = 10;
export const DEFAULT_QUANTITY = 1;

// The annotation and the hoisted message let the web bundler drop these schemas from pages that
// only need the limits (apps/web/vite.config.ts treeshake; checked by bench/budgets).
const TOO_MANY_PACKAGES = `At most ${MAX_PACKAGES} packages in total`;
/* @__NO_SIDE_EFFECTS__ */ const line = (max: number) =>
  z.strictObject({ id: z.uuid(), quantity: z.number().int().min(1).max(max).default(DEFAULT_QUANTITY) });

/** Spec §3 cart conversion payload; API.md quantity rules. `amount` is checked, never charged. */
export const createCartBodySchema = z
  .strictObject({
    reservationId: z.uuid(),
    amount: z
      .number()
      .int()
      .min(0)
      .meta({ description: 'the total the customer saw, in cents; must equal the server total' }),
    packages: z.array(line(MAX_PACKAGES)).min(1, 'Choose at least one package').max(MAX_PACKAGES),
    addOns: z.array(line(MAX_ADD_ON_QUANTITY)).max(20).default([]),
    promoCode: promoCodeInputSchema
      .optional()
      .meta({ description: 'one a cart; 409 PROMO_INVALID, its detail saying why, when it does not apply' }),
    donationCents: donationCentsSchema.default(0),
    vouchers: z
      .array(voucherCodeInputSchema)
      .max(MAX_CART_VOUCHERS, `At most ${MAX_CART_VOUCHERS} vouchers`)
      .default([])
      .meta({ description: 'gift voucher codes claimed into (or claimable by) this account; they pay first' }),
    useCredit: z
      .boolean()
      .default(false)
      .meta({ description: "pay with the account's credit first (as much as the cart costs); the card pays the rest" }),
  })
  .refine((b) => b.packages.reduce((n, p) => n + p.quantity, 0) <= MAX_PACKAGES, {
    message: TOO_MANY_PACKAGES,
    path: ['packages'],
  })
  .refine((b) => new Set(b.vouchers).size === b.vouchers.length, {
    message: 'Each voucher once',
    path: ['vouchers'],
  })
  .refine((b) => new Set([...b.packages, ...b.addOns].map((i) => i.id)).size === b.packages.length + b.addOns.length, {
    message: 'Each item once, with a quantity',
    path: ['packages'],
  });
export type CreateCartBody = z.input<typeof createCartBodySchema>;

export const lineItemSchema = z
  .object({
    id: z.uuid(),
    type: z.enum(ITEM_TYPES),
    name: z.string(),
    quantity: z.number().int(),
    unitPriceCents: z.number().int(),
    totalCents: z.number().int(),
  })
  .meta({ id: 'LineItem' });
export type LineItem = z.infer<typeof lineItemSchema>;

export const cartDiscountSchema = z
  .object({ kind: z.literal('promo'), code: z.string(), cents: z.number().int() })
  .meta({ id: 'CartDiscount' });
export type CartDiscount = z.infer<typeof cartDiscountSchema>;

export const cartSchema = z
  .object({
    id: z.uuid(),
    reservationId: z.uuid(),
    items: z.array(lineItemSchema),
    amountCents: z.number().int().meta({ description: "the goods' total (packages and add-ons) before any discount" }),
    gstCents: z.number().int().meta({ description: 'the GST in the goods charged (a donation has none)' }),
    discounts: z.array(cartDiscountSchema),
    payments: z
      .array(z.object({ kind: z.enum(['voucher', 'credit']), code: z.string().optional(), cents: z.number().int() }))
      .meta({ description: 'vouchers (each with its code) and then credit spent on this cart' }),
    donationCents: z.number().int().meta({ description: 'outside GST; part of dueCents' }),
    dueCents: z.number().int().meta({
      description: 'what the card pays: the goods less the promo, plus the donation, less vouchers and credit spent',
    }),
    currency: z.literal(CURRENCY),
  })
  .meta({ id: 'Cart' });
export type Cart = z.infer<typeof cartSchema>;

export const checkoutBodySchema = z.strictObject({
  cartId: z.uuid(),
  business: businessBuyerSchema.optional().meta({
    description: 'A booking for a business or school: its name and ABN go on the tax invoice (ATO)',
  }),
});
export const checkoutResultSchema = z
  .object({
    bookingId: z.uuid(),
    orderId: z.uuid(),
    client_secret: z
      .string()
      .nullable()
      .meta({ description: 'null when nothing is left for the card: the booking is confirmed already' }),
    message: z.string(),
    amountCents: z.number().int().meta({ description: "what the card pays (the cart's dueCents)" }),
    expiresAt: z.iso.datetime(),
  })
  .meta({ id: 'CheckoutResult' });
export type CheckoutResult = z.infer<typeof checkoutResultSchema>;

export const stripeClientConfigSchema = z
  .object({
    provider: z.literal('stripe'),
    publishableKey: z.string(),
    sandbox: z.boolean(),
    sandboxUrl: z.string().optional(),
  })
  .meta({ id: 'StripeClientConfig' });
export type StripeClientConfig = z.infer<typeof stripeClientConfigSchema>;

/** `reservationId` names the hold that still runs, so the countdown can offer more time while paying. */
export const continuePaymentResultSchema = z
  .object({ client_secret: z.string(), expiresAt: z.iso.datetime(), reservationId: z.uuid() })
  .meta({ id: 'ContinuePayment' });
export type ContinuePaymentResult = z.infer<typeof continuePaymentResultSchema>;
