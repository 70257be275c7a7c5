import { z } from 'zod';

/**
 * The charity line (issue 52, API.md "Gift vouchers, promo codes, credit, donations"): with
 * CHARITY_NAME set, a cart may carry a donation, outside GST, paid after the goods (decision 0109).
 */
export const MAX_DONATION_CENTS = 10_000;
/** The amounts the Overview offers as one tap each; another amount up to the maximum too. */
export const SUGGESTED_DONATION_CENTS = [200, 500, 1000] as const;

export const donationCentsSchema = z
  .number()
  .int()
  .min(0)
  .max(MAX_DONATION_CENTS, 'At most $100')
  .meta({ description: `0-${MAX_DONATION_CENTS} cents; only when the operator names a charity (GET /common/charity)` });

/** The tax invoice's and the cart's words for the line. */
export const donationLabel = (charityName: string) => `Donation to ${charityName} (no GST)`;

export const charitySchema = z
  .object({
    name: z.string().nullable().meta({ description: 'null: no donation is offered' }),
    suggestedCents: z.array(z.number().int()),
    maxCents: z.number().int(),
  })
  .meta({ id: 'Charity' });
export type Charity = z.infer<typeof charitySchema>;
