import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import { byIp, rateLimit } from '../../plugins/rate-limit';
import { APP_CHECK_LIMITS } from '../accounts/account-limits';
import { exchangeSolution, issueChallenge } from './app-check.service';

const challengeSchema = z
  .object({
    algorithm: z.literal('SHA-256'),
    challenge: z.string(),
    salt: z.string(),
    signature: z.string(),
    maxnumber: z.number().int(),
  })
  .meta({
    id: 'AppCheckChallenge',
    description: 'An ALTCHA proof-of-work challenge: find `number` with SHA-256(salt + number) = challenge.',
  });

const exchangeBody = z.strictObject({
  payload: z
    .string()
    .min(1)
    .max(4096)
    .regex(/^[A-Za-z0-9+/]+={0,2}$/, 'base64')
    .describe('base64 of the JSON {algorithm, challenge, number, salt, signature} of the solved challenge'),
});

/** Proof-of-work app check (API.md "App check"); public, and exempt from X-App-Check itself. */
export async function appCheckRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const deps = () => ({ db: app.db, clock: app.clock, secret: app.secrets.appCheckSecret });

  r.post(
    '/app-check/challenge',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['app-check'],
        summary: 'A proof-of-work challenge to solve before the exchange',
        response: { 200: challengeSchema, 429: errorBodySchema },
      },
      preHandler: [
        rateLimit(app, {
          name: 'app-check-challenge:ip',
          max: APP_CHECK_LIMITS.challenge.perIp,
          window: APP_CHECK_LIMITS.challenge.window,
          key: byIp,
        }),
      ],
    },
    async () => issueChallenge(deps()),
  );

  r.post(
    '/app-check/exchange',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['app-check'],
        summary: 'Exchange a solved challenge for an app-check token (send it as X-App-Check)',
        body: exchangeBody,
        response: {
          200: z.object({ token: z.string(), expiresAt: z.iso.datetime() }).meta({ id: 'AppCheckToken' }),
          400: errorBodySchema,
          403: errorBodySchema.describe('ATTESTATION_FAILED: wrong, expired or already used solution'),
          429: errorBodySchema,
        },
      },
      preHandler: [
        rateLimit(app, {
          name: 'app-check-exchange:ip',
          max: APP_CHECK_LIMITS.exchange.perIp,
          window: APP_CHECK_LIMITS.exchange.window,
          key: byIp,
        }),
      ],
    },
    async (request) => exchangeSolution(deps(), request.body.payload),
  );
}
