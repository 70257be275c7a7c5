import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { charitySchema, MAX_DONATION_CENTS, SUGGESTED_DONATION_CENTS } from '@kringle/contracts/donations';

/** GET /common/charity: whether the Overview offers a donation, to whom, and the amounts it suggests (issue 52). */
export async function charityRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const charity = {
    name: app.config.CHARITY_NAME ?? null,
    suggestedCents: [...SUGGESTED_DONATION_CENTS],
    maxCents: MAX_DONATION_CENTS,
  };
  r.get(
    '/common/charity',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['catalogue'],
        summary: 'The charity a cart may give to (CHARITY_NAME), or none',
        description:
          "A cart's donationCents (0 to maxCents) is outside GST and paid after the goods; with name null a " +
          'donation is refused (400 VALIDATION_FAILED).',
        response: { 200: charitySchema },
      },
    },
    async (_req, reply) => {
      // Configuration only changes with a restart, as the policy's.
      reply.header('cache-control', 'public, max-age=300');
      return charity;
    },
  );
}
