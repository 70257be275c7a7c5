import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { bookingListQuerySchema, bookingListSchema, bookingParamsSchema, bookingSchema } from '@kringle/contracts/bookings';
import { errorBodySchema } from '@kringle/contracts/errors';
import { authOf } from '../../plugins/auth';
import { getBooking, listBookings } from './bookings.service';

/** My bookings (API.md "Bookings and orders"): customers only. */
export async function bookingsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { auth: 'customer' as const };
  const tags = ['bookings'];

  r.get(
    '/bookings/upcoming-bookings',
    { config, schema: { tags, summary: 'Upcoming bookings, soonest first', querystring: bookingListQuerySchema, response: { 200: bookingListSchema, 400: errorBodySchema } } },
    async (req) => listBookings(app, authOf(req).userId, 'upcoming', req.query.cursor),
  );
  r.get(
    '/bookings/past-bookings',
    { config, schema: { tags, summary: 'Past and cancelled bookings, latest first', querystring: bookingListQuerySchema, response: { 200: bookingListSchema, 400: errorBodySchema } } },
    async (req) => listBookings(app, authOf(req).userId, 'past', req.query.cursor),
  );
  r.get(
    '/bookings/:id',
    { config, schema: { tags, summary: 'One booking', params: bookingParamsSchema, response: { 200: bookingSchema, 404: errorBodySchema } } },
    async (req) => getBooking(app, authOf(req).userId, req.params.id),
  );
}
