import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import { delayBodySchema, delayResultSchema } from '@kringle/contracts/wallet';
import { authOf } from '../../plugins/auth';
import { assertStaffLocation, type StaffRole } from '../../plugins/staff-access';
import { announceDelay } from './delay.service';

/** "Santa is running late" from the run sheet: the set's own action (and a manager's). */
export async function staffDelayRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().post(
    '/staff/locations/:id/delay',
    {
      config: { auth: 'staff', staffRoles: ['set'] as const satisfies readonly StaffRole[] },
      schema: {
        tags: ['staff'],
        summary: 'Tell families booked in the next 3 hours (not checked in) that Santa is running late',
        description:
          'An e-mail to each, and an SMS to those who gave a mobile, with the new expected time; at most once a ' +
          'booking per 30 minutes (`families` counts those told this time). Each booking told is audited and its ' +
          'booking answer shows `delay`.',
        params: z.strictObject({ id: z.uuid() }),
        body: delayBodySchema,
        response: { 202: delayResultSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (req, reply) => {
      assertStaffLocation(req, req.params.id);
      return reply.code(202).send(await announceDelay(app, authOf(req), req.params.id, req.body));
    },
  );
}
