import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import {
  createReservationBodySchema,
  reservationListSchema,
  reservationParamsSchema,
  reservationSchema,
} from '@kringle/contracts/reservations';
import { authOf } from '../../plugins/auth';
import { holdFromOf } from '../sessions/hold-address';
import { cancelReservation, getReservation, listReservations, refreshReservation } from './held-reservations.service';
import { createReservation } from './reservations.service';
import { holdWanted } from './wanted-holds.service';

/** Timed holds (API.md "Reservations"): customers only. */
export async function reservationsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { auth: 'customer' as const };
  const tags = ['reservations'];
  // What families in a line chose before the opening is held through this module's hold (issue 55).
  app.queueGate.holdWanted = (locationId, wanting) => holdWanted(app, locationId, wanting);

  r.post(
    '/bookings/reservation',
    {
      config,
      schema: {
        tags,
        summary: 'Hold a session (one at a time per family)',
        description:
          'A session the family itself already holds (a live hold or an unpaid checkout) answers 200 with that same ' +
          'reservation. ' +
          'Any other session while the family has a live hold or an unpaid checkout (waitlist offers aside) is 409 ' +
          '`HOLD_LIMIT`: let that one go first. ' +
          'After more than `HOLD_COOLDOWN_RELEASES` (3) sessions let go within `HOLD_COOLDOWN_WINDOW_MINUTES` (10), ' +
          'a new hold is 409 `HOLD_COOLDOWN` ' +
          'with `Retry-After` (seconds) until the oldest of them leaves the window. ' +
          'When `HOLD_ADDRESS_LIMIT` (10) sessions of the same location and day are already on hold (live or being ' +
          "paid) from the client's address " +
          '(an IPv6 client by its /64), a new hold is 429 `RATE_LIMITED` with `Retry-After` (seconds) until the ' +
          'first of them ends.',
        body: createReservationBodySchema,
        response: {
          200: reservationSchema,
          201: reservationSchema,
          404: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
    },
    async (req, reply) => {
      const from = holdFromOf(app, req.ip);
      const { reservation, existing } = await createReservation(app, authOf(req).userId, req.body, from);
      return reply.code(existing ? 200 : 201).send(reservation);
    },
  );

  r.get(
    '/bookings/reservation',
    {
      config,
      schema: {
        tags,
        summary: "The family's live holds and unpaid checkouts",
        description:
          'Soonest to lapse first; `bookingId` names the booking an unpaid checkout waits to pay, so any device can ' +
          'resume it after sign-in.',
        response: { 200: reservationListSchema },
      },
    },
    async (req) => listReservations(app, authOf(req).userId),
  );

  r.get(
    '/bookings/reservation/:id',
    {
      config,
      schema: {
        tags,
        summary: 'A hold',
        params: reservationParamsSchema,
        response: { 200: reservationSchema, 404: errorBodySchema },
      },
    },
    async (req) => getReservation(app, authOf(req).userId, req.params.id),
  );

  r.post(
    '/bookings/reservation/:id/refresh',
    {
      config,
      schema: {
        tags,
        summary: 'More time on a live hold',
        params: reservationParamsSchema,
        response: { 200: reservationSchema, 404: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (req) => refreshReservation(app, authOf(req).userId, req.params.id),
  );

  r.post(
    '/bookings/reservation/:id/cancel',
    {
      config,
      schema: {
        tags,
        summary: 'Let the session go now',
        params: reservationParamsSchema,
        response: { 200: reservationSchema, 404: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (req) => cancelReservation(app, authOf(req).userId, req.params.id),
  );
}
