import { z } from 'zod';
import { DATE_PATTERN } from './dates';

/**
 * GET /common/catalogue (API.md "The family's journey, round three"): what a visitor can book,
 * shown on /register and /login before any account exists. Public, no app check, cacheable.
 */
export const publicCatalogueSchema = z
  .object({
    locations: z.array(
      z.object({
        id: z.uuid(),
        name: z.string(),
        suburb: z.string(),
        state: z.string(),
        timezone: z.string().meta({ description: 'IANA time zone of the location' }),
        seasonStart: z.string().regex(DATE_PATTERN),
        seasonEnd: z.string().regex(DATE_PATTERN),
        salesOpenAt: z.iso
          .datetime()
          .nullable()
          .meta({ description: 'when bookings open (an instant); null: on sale' }),
        slotTypes: z
          .array(
            z.object({
              id: z.uuid(),
              name: z.string(),
              durationMinutes: z.number().int(),
              fromPriceCents: z
                .number()
                .int()
                .meta({
                  description:
                    'All-in: the cheapest a family can pay for a session of this type (its cheapest package, GST ' +
                    'included; nothing else is compulsory)',
                }),
            }),
          )
          .meta({ description: 'Session types with sessions still ahead and a package to book them with' }),
      }),
    ),
  })
  .meta({ id: 'PublicCatalogue' });
export type PublicCatalogue = z.infer<typeof publicCatalogueSchema>;
