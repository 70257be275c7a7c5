import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { buildApp } from '../src/app';
import { loadConfig } from '../src/config/config';
import { generateJwtKey } from '../src/config/secrets';
import { createDb } from '../src/db/client';
import { ManualClock } from '../src/lib/clock';
import { byBodyEmail, byIp, rateLimit } from '../src/plugins/rate-limit';
import { createTestDatabase } from './test-app';

export const TEST_APP_CHECK_SECRET = 'test-app-check-secret-0123456789abcdef';

export interface ProbeApp {
  app: FastifyInstance;
  clock: ManualClock;
  databaseUrl: string;
  close(): Promise<void>;
}

/**
 * The real app (as createTestApp builds it) plus a few probe routes under /api/v1 that no
 * feature owns, so app check and rate limits can be tested on ordinary routes. Pass
 * `databaseUrl` to run a second instance on the same database.
 */
export async function createProbeApp(env: Record<string, string>, options: { databaseUrl?: string; clock?: ManualClock; secret?: string } = {}): Promise<ProbeApp> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const clock = options.clock ?? new ManualClock();
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    APP_CHECK_MODE: 'off',
    RATE_LIMIT_MODE: 'off',
    JOBS_ENABLED: 'false',
    SERVE_WEB: 'false',
    ...env,
  });
  const { db, pool } = createDb(databaseUrl, 5);
  const app = await buildApp({
    config,
    secrets: { jwtPrivateKeyPem: await generateJwtKey(), appCheckSecret: options.secret ?? TEST_APP_CHECK_SECRET },
    db,
    pool,
    clock,
  });
  await app.register(
    async (api) => {
      const r = api.withTypeProvider<ZodTypeProvider>();
      const ok = { 200: z.object({ ok: z.literal(true) }) };
      r.get('/probe', { schema: { summary: 'probe', response: ok } }, async () => ({ ok: true as const }));
      r.get('/probe-open', { schema: { response: ok }, config: { appCheck: false } }, async () => ({ ok: true as const }));
      r.post(
        '/probe-limited',
        {
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
  await app.ready();
  return {
    app,
    clock,
    databaseUrl,
    async close() {
      await app.close();
      await pool.end();
    },
  };
}
