import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import {
  joinWaitlistBodySchema,
  waitlistEntrySchema,
  waitlistListSchema,
  waitlistParamsSchema,
} from '@kringle/contracts/waitlist';
import { z } from 'zod';
import { authOf } from '../../plugins/auth';
import { byIp, rateLimit } from '../../plugins/rate-limit';
import { WAITLIST_JOIN_LIMITS as LIMITS } from './waitlist-limits';
import { joinWaitlist, leaveWaitlist, listWaitlist } from './waitlist.service';

/** The waitlist for sold-out days (API.md "Additions" → "Waitlist", decision 0028): customers only. */
export async function waitlistRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { auth: 'customer' as const };
  const tags = ['waitlist'];
  const byUser = (req: { auth: { userId: string } | null }) => req.auth?.userId;
  const joinLimits = [
    rateLimit(app, { name: 'waitlist-join:user', max: LIMITS.perUser.max, window: LIMITS.perUser.window, key: byUser }),
    rateLimit(app, {
      name: 'waitlist-join:user-day',
      max: LIMITS.perUserDay.max,
      window: LIMITS.perUserDay.window,
      key: byUser,
    }),
    rateLimit(app, { name: 'waitlist-join:ip', max: LIMITS.perIp.max, window: LIMITS.perIp.window, key: byIp }),
  ];

  r.post(
    '/waitlist',
    {
      config,
      schema: {
        tags,
        summary: 'Join the line for a sold-out day',
        description:
          'One entry per location, session type and local date. 409 WAITLIST_NOT_NEEDED while a session of that type ' +
          'is on sale that day, ' +
          'ALREADY_WAITLISTED, WAITLIST_LIMIT (WAITLIST_LIMIT live entries at most), ALREADY_BOOKED (a booking on ' +
          'that day), ' +
          'SALES_NOT_OPEN (before the location opens bookings), BOOKING_LIMIT (MAX_UPCOMING_BOOKINGS upcoming ' +
          'bookings already); 404 for an unknown location or a session type of another location; ' +
          '400 for a day outside the season ahead or with no sessions of that type left. ' +
          '429 RATE_LIMITED (Retry-After) past 10 joins an hour or 30 a day per account, or 300 an hour per address ' +
          '(issue 36).',
        body: joinWaitlistBodySchema,
        response: {
          201: waitlistEntrySchema,
          400: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
          429: errorBodySchema,
        },
      },
      preHandler: joinLimits,
    },
    async (req, reply) => reply.code(201).send(await joinWaitlist(app, authOf(req).userId, req.body)),
  );

  r.get(
    '/waitlist',
    {
      config,
      schema: {
        tags,
        summary: 'Your live waitlist entries, with your place in each line and any open offer',
        description:
          'An offer is a reservation held for you alone (use it with the reservation, cart and checkout endpoints) ' +
          'until offer.expiresAt.',
        response: { 200: waitlistListSchema },
      },
    },
    async (req) => listWaitlist(app, authOf(req).userId),
  );

  r.delete(
    '/waitlist/:id',
    {
      config,
      schema: {
        tags,
        summary: 'Leave the line (an open offer passes to the next family)',
        params: waitlistParamsSchema,
        response: { 204: z.null().describe('Left'), 404: errorBodySchema },
      },
    },
    async (req, reply) => {
      await leaveWaitlist(app, authOf(req).userId, req.params.id);
      return reply.code(204).send(null);
    },
  );
}
