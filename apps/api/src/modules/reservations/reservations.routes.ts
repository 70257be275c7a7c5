import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import { createReservationBodySchema, reservationParamsSchema, reservationSchema } from '@kringle/contracts/reservations';
import { authOf } from '../../plugins/auth';
import { cancelReservation, createReservation, getReservation, refreshReservation } from './reservations.service';

/** Timed holds (API.md "Reservations"): customers only. */
export async function reservationsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { auth: 'customer' as const };
  const tags = ['reservations'];

  r.post(
    '/bookings/reservation',
    {
      config,
      schema: {
        tags,
        summary: 'Hold a session (releases your previous hold)',
        body: createReservationBodySchema,
        response: { 201: reservationSchema, 404: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (req, reply) => reply.code(201).send(await createReservation(app, authOf(req).userId, req.body)),
  );

  r.get(
    '/bookings/reservation/:id',
    { config, schema: { tags, summary: 'A hold', params: reservationParamsSchema, response: { 200: reservationSchema, 404: errorBodySchema } } },
    async (req) => getReservation(app, authOf(req).userId, req.params.id),
  );

  r.post(
    '/bookings/reservation/:id/refresh',
    {
      config,
      schema: { tags, summary: 'More time on a live hold', params: reservationParamsSchema, response: { 200: reservationSchema, 404: errorBodySchema, 409: errorBodySchema } },
    },
    async (req) => refreshReservation(app, authOf(req).userId, req.params.id),
  );

  r.post(
    '/bookings/reservation/:id/cancel',
    {
      config,
      schema: { tags, summary: 'Let the session go now', params: reservationParamsSchema, response: { 200: reservationSchema, 404: errorBodySchema, 409: errorBodySchema } },
    },
    async (req) => cancelReservation(app, authOf(req).userId, req.params.id),
  );
}
