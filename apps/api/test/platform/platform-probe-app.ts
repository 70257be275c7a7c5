import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ManualClock } from '../../src/lib/clock';
import { byBodyEmail, byIp, rateLimit } from '../../src/plugins/rate-limit';
import { createTestApp, type TestApp } from '../helpers/test-app';

export type ProbeApp = TestApp;

/**
 * The real app (as createTestApp builds it) plus a few probe routes under /api/v1 that no
 * feature owns, so app check and rate limits can be tested on ordinary routes. Pass
 * `databaseUrl` to run a second instance on the same database.
 */
export async function createProbeApp(
  env: Record<string, string>,
  options: { databaseUrl?: string; clock?: ManualClock; secret?: string } = {},
): Promise<ProbeApp> {
  return createTestApp(env, options.clock ?? new ManualClock(), registerProbeRoutes, {
    databaseUrl: options.databaseUrl,
    appCheckSecret: options.secret,
  });
}

async function registerProbeRoutes(app: FastifyInstance) {
  await app.register(
    async (api) => {
      const r = api.withTypeProvider<ZodTypeProvider>();
      const ok = { 200: z.object({ ok: z.literal(true) }) };
      r.get('/probe', { config: { auth: 'public' }, schema: { summary: 'probe', response: ok } }, async () => ({
        ok: true as const,
      }));
      r.get('/probe-open', { schema: { response: ok }, config: { auth: 'public', appCheck: false } }, async () => ({
        ok: true as const,
      }));
      r.post(
        '/probe-limited',
        {
          config: { auth: 'public' },
          schema: { body: z.strictObject({ email: z.email() }), response: ok },
          preHandler: [
            rateLimit(api, { name: 'probe:ip', max: 5, window: '1 minute', key: byIp }),
            rateLimit(api, { name: 'probe:email', max: 2, window: '1 hour', key: byBodyEmail }),
          ],
        },
        async () => ({ ok: true as const }),
      );
    },
    { prefix: '/api/v1' },
  );
}
