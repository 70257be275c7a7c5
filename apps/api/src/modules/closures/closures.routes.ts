import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { bookingParamsSchema, bookingSchema } from '@kringle/contracts/bookings';
import {
  closureBodySchema,
  closureCreatedSchema,
  closureParamsSchema,
  closurePreviewBodySchema,
  closurePreviewSchema,
  closureSchema,
} from '@kringle/contracts/closures';
import { errorBodySchema } from '@kringle/contracts/errors';
import { authOf } from '../../plugins/auth';
import { assertStaffLocation } from '../../plugins/staff-access';
import { getBooking } from '../bookings/bookings.service';
import { answerOffer } from './closure-remedies.service';
import { closureCsv } from './closures.csv';
import { getClosure, previewClosure, startClosure } from './closures.service';

const idempotencyHeaders = z.object({
  'idempotency-key': z.string().min(1).max(200).optional().meta({
    description:
      'The same key from the same manager answers the same closure; with a different body, 422 IDEMPOTENCY_MISMATCH',
  }),
});

/** Closures (issue 35, API.md "Season editor, closures, reports"; decision 0055). */
export async function closuresRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const manager = { auth: 'staff' as const, staffRoles: ['manager'] as const };
  const family = { auth: 'customer' as const };
  const tags = ['staff'];
  const locationOf = (req: FastifyRequest) => (locationId: string) => assertStaffLocation(req, locationId);

  r.post(
    '/staff/closures/preview',
    {
      config: manager,
      schema: {
        tags,
        summary: 'Dry run of a closure: the sessions, the bookings and the money to refund, the free sessions nearby',
        description: 'Changes nothing. Sessions starting in [from, to) at the location (of one type if given).',
        body: closurePreviewBodySchema,
        response: { 200: closurePreviewSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (req) => previewClosure(app, req.body, locationOf(req)),
  );
  r.post(
    '/staff/closures',
    {
      config: manager,
      schema: {
        tags,
        summary: 'Close sessions: they stop selling at once, each booking is remedied by a background job',
        description:
          "`confirm` must be the location's name (else 400 CLOSURE_NOT_CONFIRMED, nothing changed). 202 with the " +
          "closure's id; follow it with GET /staff/closures/{id}. The same Idempotency-Key with a different body: " +
          '422 IDEMPOTENCY_MISMATCH, nothing changed.',
        headers: idempotencyHeaders,
        body: closureBodySchema,
        response: { 202: closureCreatedSchema, 400: errorBodySchema, 404: errorBodySchema, 422: errorBodySchema },
      },
    },
    async (req, reply) =>
      reply
        .code(202)
        .send(await startClosure(app, req.body, authOf(req), req.headers['idempotency-key'], locationOf(req))),
  );
  r.get(
    '/staff/closures/:id',
    {
      config: manager,
      schema: {
        tags,
        summary: "A closure's progress and the outcome of each booking",
        params: closureParamsSchema,
        response: { 200: closureSchema, 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (req) => getClosure(app, req.params.id, locationOf(req)),
  );
  r.get(
    '/staff/closures/:id.csv',
    {
      config: manager,
      schema: {
        tags,
        summary: "A closure's outcome per booking as CSV (text/csv)",
        params: closureParamsSchema,
        response: { 200: z.any().meta({ description: 'text/csv' }), 400: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (req, reply) =>
      reply
        .type('text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="closure-${req.params.id}.csv"`)
        .send(closureCsv(await getClosure(app, req.params.id, locationOf(req)))),
  );
  const answers = {
    accept: 'Accept the session a closure holds for this booking: the booking moves there',
    refund: 'Turn down the offered session: the booking is cancelled and refunded in full',
  } as const;
  for (const [answer, summary] of Object.entries(answers) as [keyof typeof answers, string][]) {
    r.post(
      `/bookings/:id/closure/${answer}`,
      {
        config: family,
        schema: {
          tags: ['bookings'],
          summary,
          description: '409 NO_CLOSURE_OFFER when no offer is open (answered, lapsed, or never made).',
          params: bookingParamsSchema,
          response: { 200: bookingSchema, 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
        },
      },
      async (req) => {
        await answerOffer(app, req.params.id, answer, authOf(req).userId);
        return getBooking(app, authOf(req).userId, req.params.id);
      },
    );
  }
}
