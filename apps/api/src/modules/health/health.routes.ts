import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import { errors } from '../../lib/errors';

/** Liveness and readiness (public, no app check). */
export async function healthRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/health',
    {
      config: { auth: 'public' },
      schema: { tags: ['health'], summary: 'Liveness', response: { 200: z.object({ status: z.literal('ok') }) } },
    },
    async () => ({ status: 'ok' as const }),
  );
  r.get(
    '/ready',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['health'],
        summary: 'Readiness: 200 when the database answers, else 503 (also while the process drains for a stop)',
        response: { 200: z.object({ status: z.literal('ready') }), 503: errorBodySchema },
      },
    },
    async () => {
      // Out of rotation from the SIGTERM on, while the process still answers (decision 0093).
      if (app.drain.active) throw errors.serviceUnavailable('The service is shutting down.');
      try {
        await app.pool.query('select 1');
      } catch {
        throw errors.serviceUnavailable('The service is not ready yet.');
      }
      return { status: 'ready' as const };
    },
  );
}
