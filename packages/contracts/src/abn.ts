import { z } from 'zod';

/**
 * The Australian Business Number (issue 51, ATO): 11 digits whose weighted sum, after taking 1 from
 * the first digit, is a multiple of 89 (the ABR's published check). Spaces are allowed as typed
 * ("51 824 753 556") and dropped; what is stored and printed is the 11 digits, grouped 2-3-3-3.
 */
const WEIGHTS = [10, 1, 3, 5, 7, 9, 11, 13, 15, 17, 19] as const;

export const normaliseAbn = (value: string): string => value.replace(/[\s\u00a0]/g, '');

export function isValidAbn(value: string): boolean {
  const digits = normaliseAbn(value);
  if (!/^\d{11}$/.test(digits) || digits[0] === '0') return false;
  const sum = [...digits].reduce((n, d, i) => n + (Number(d) - (i === 0 ? 1 : 0)) * WEIGHTS[i]!, 0);
  return sum % 89 === 0;
}

/** "51824753556" → "51 824 753 556", as the ABR shows it. */
export const formatAbn = (digits: string): string =>
  `${digits.slice(0, 2)} ${digits.slice(2, 5)} ${digits.slice(5, 8)} ${digits.slice(8, 11)}`;

/** A booking for a business or school: the buyer's name and ABN printed on the tax invoice. */
export const businessBuyerSchema = z
  .strictObject({
    name: z
      .string({ error: 'Enter the business or school name.' })
      .trim()
      .min(2, 'Enter the business or school name.')
      .max(120, 'The business or school name: at most 120 characters.'),
    abn: z
      .string({ error: 'Enter the ABN: 11 digits.' })
      .max(20, 'Enter the ABN: 11 digits.')
      .transform(normaliseAbn)
      .refine((v) => /^\d{11}$/.test(v), 'Enter the ABN: 11 digits.')
      .refine(isValidAbn, 'That ABN is not valid: check its digits.'),
  })
  .meta({
    id: 'BusinessBuyer',
    description:
      'A booking for a business or school: the name and ABN (11 digits, spaces allowed, checked by the ABR checksum) ' +
      'go on the tax invoice',
  });
export type BusinessBuyer = z.output<typeof businessBuyerSchema>;

/** From this total (GST included) a tax invoice must also show the buyer's identity or ABN (ATO). */
export const BUYER_IDENTITY_FROM_CENTS = 100_000;
