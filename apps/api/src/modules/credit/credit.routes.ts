import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { creditSchema } from '@kringle/contracts/credit';
import { authOf } from '../../plugins/auth';
import { accountCredit } from './credit.service';

export async function creditRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/user/credit',
    {
      config: { auth: 'customer' },
      schema: {
        tags: ['bookings'],
        summary: "The family's account credit: the balance and each move (a refund taken as credit, …)",
        response: { 200: creditSchema },
      },
    },
    async (req) => accountCredit(app, authOf(req).userId),
  );
}
