import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  bookingListQuerySchema,
  bookingListSchema,
  bookingParamsSchema,
  bookingSchema,
  cancelBodySchema,
  cancelResultSchema,
  rescheduleBodySchema,
} from '@kringle/contracts/bookings';
import { errorBodySchema } from '@kringle/contracts/errors';
import { authOf } from '../../plugins/auth';
import { z } from 'zod';
import { bookingIcs } from '../booking-lifecycle/booking-calendar';
import { getBooking, listBookings } from './bookings.service';
import { cancelBooking } from './cancel.service';
import { rescheduleBooking } from './reschedule.service';
import { bookingDetails } from '../booking-lifecycle/booking-rows.repository';
import { bookingDetailsBodySchema } from '@kringle/contracts/booking-details';
import { updateBookingDetails } from './booking-details.service';

/** My bookings (API.md "Bookings and orders"): customers only. */
export async function bookingsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { auth: 'customer' as const };
  const tags = ['bookings'];

  r.get(
    '/bookings/upcoming-bookings',
    {
      config,
      schema: {
        tags,
        summary: 'Upcoming bookings, soonest first',
        querystring: bookingListQuerySchema,
        response: { 200: bookingListSchema, 400: errorBodySchema },
      },
    },
    async (req) => listBookings(app, authOf(req).userId, 'upcoming', req.query.cursor),
  );
  r.get(
    '/bookings/past-bookings',
    {
      config,
      schema: {
        tags,
        summary: 'Past and cancelled bookings, latest first',
        querystring: bookingListQuerySchema,
        response: { 200: bookingListSchema, 400: errorBodySchema },
      },
    },
    async (req) => listBookings(app, authOf(req).userId, 'past', req.query.cursor),
  );
  r.get(
    '/bookings/:id',
    {
      config,
      schema: {
        tags,
        summary: 'One booking',
        params: bookingParamsSchema,
        response: { 200: bookingSchema, 404: errorBodySchema },
      },
    },
    async (req) => getBooking(app, authOf(req).userId, req.params.id),
  );

  r.put(
    '/bookings/:id/details',
    {
      config,
      schema: {
        tags,
        summary:
          "Who's coming: children (first name, age), adults, pets (pet nights only), access needs and notes; until " +
          'the session starts',
        description:
          `At least one child or adult and at most MAX_PEOPLE_PER_PHOTO (default 8) together. Unpaid ` +
          `bookings take them too (the web app sends them before Payment). Any accessNeeds or accessNote need ` +
          `consent: true (health information), else 400 CONSENT_REQUIRED; the consent is recorded with its wording ` +
          `version. 409 DETAILS_LOCKED once the session has started or the booking is cancelled.`,
        params: bookingParamsSchema,
        body: bookingDetailsBodySchema,
        response: { 200: bookingSchema, 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (req) => updateBookingDetails(app, authOf(req).userId, req.params.id, req.body),
  );

  r.post(
    '/bookings/:id/cancel',
    {
      config,
      schema: {
        tags,
        summary: 'Cancel with the refund the policy gives, to the card or as credit (once, however often sent)',
        params: bookingParamsSchema,
        body: cancelBodySchema,
        response: { 200: cancelResultSchema, 404: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (req) => cancelBooking(app, authOf(req).userId, req.params.id, req.body ?? {}),
  );
  r.post(
    '/bookings/:id/reschedule',
    {
      config,
      schema: {
        tags,
        summary: 'Move to the session held with POST /bookings/reservation {slotId, bookingId}',
        params: bookingParamsSchema,
        body: rescheduleBodySchema,
        response: { 200: bookingSchema, 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (req) => rescheduleBooking(app, authOf(req).userId, req.params.id, req.body.reservationId),
  );
  r.get(
    '/bookings/:id/calendar.ics',
    {
      config,
      schema: {
        tags,
        summary: "The session as an iCalendar event in the location's zone",
        params: bookingParamsSchema,
        response: { 200: z.any().meta({ description: 'text/calendar' }), 404: errorBodySchema },
      },
    },
    async (req, reply) => {
      const booking = await getBooking(app, authOf(req).userId, req.params.id);
      const ics = bookingIcs(await bookingDetails(app.db, booking.id), app.config.BRAND_NAME, app.clock.now());
      return reply
        .type('text/calendar; charset=utf-8')
        .header('content-disposition', `attachment; filename="${booking.reference}.ics"`)
        .send(ics);
    },
  );
}
