import { parsePhoneNumberFromString } from 'libphonenumber-js/mobile';
import { z } from 'zod';

/**
 * An Australian mobile in E.164 (`+61412345678`), or null when `input` is not one: typed as the
 * family knows it (`0412 345 678`, `+61 412 345 678`). libphonenumber-js's mobile metadata tells a
 * mobile from a landline, so an SMS never goes to a number that cannot take one (decision 0100).
 */
export function australianMobile(input: string): string | null {
  const parsed = parsePhoneNumberFromString(input.trim(), 'AU');
  if (!parsed || parsed.country !== 'AU' || !parsed.isValid() || parsed.getType() !== 'MOBILE') return null;
  return parsed.number;
}

export const MOBILE_MESSAGE = 'Enter an Australian mobile number, like 0412 345 678';

/** PATCH /user/me's `phone`: an Australian mobile, answered and stored as E.164. */
export const australianMobileSchema = z
  .string()
  .trim()
  .max(24, { message: MOBILE_MESSAGE })
  .transform((value, ctx) => {
    const e164 = australianMobile(value);
    if (!e164) {
      ctx.addIssue({ code: 'custom', message: MOBILE_MESSAGE });
      return z.NEVER;
    }
    return e164;
  })
  .meta({ description: 'An Australian mobile (04xx xxx xxx or +61 4xx xxx xxx); stored and shown as E.164' });

/** `+61412345678` → `0412 345 678`, as people in Australia write it. */
export function displayMobile(e164: string): string {
  const parsed = parsePhoneNumberFromString(e164);
  return parsed?.country === 'AU' ? parsed.formatNational() : e164;
}
