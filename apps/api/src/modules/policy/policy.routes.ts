import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { policySchema } from '@kringle/contracts/policy-schema';
import { policyInForce } from './policy.service';

/** GET /common/policy: public (the help panel shows it before sign-in), behind the app check like the rest. */
export async function policyRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const policy = policyInForce(app.config);
  r.get(
    '/common/policy',
    {
      config: { auth: 'public' },
      schema: { tags: ['catalogue'], summary: 'The policy numbers in force', response: { 200: policySchema } },
    },
    async (_req, reply) => {
      // Configuration only changes with a restart; a short cache spares a call per page.
      reply.header('cache-control', 'public, max-age=300');
      return policy;
    },
  );
}
