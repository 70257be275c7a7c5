import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  availableDatesQuerySchema,
  availableDatesSchema,
  availableSlotsQuerySchema,
  availableSlotsSchema,
  locationParamsSchema,
  slotParamsSchema,
  slotAnswerSchema,
} from '@kringle/contracts/catalogue';
import { errorBodySchema } from '@kringle/contracts/errors';
import { z } from 'zod';
import type { LaneLookup } from '../../plugins/answer-lane';
import { buildAnswer, prepareBuilt, sendBuilt } from './availability.answer';
import { getAvailableDates, getAvailableSlots, getSlot } from './availability.service';

/** Availability (API.md "Catalogue": available dates, slots and one slot): customers only. */
export async function availabilityRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const customer = { auth: 'customer' as const };
  const notFound = { 404: errorBodySchema };
  /** If-None-Match named the current answer (its ETag): no body, the client's copy stands (decision 0029). */
  const notModified = { 304: z.null().describe('Not modified: the copy named by If-None-Match is current') };
  const cache = app.slotState.availability;
  const servable: LaneLookup = (key, now) => cache.servable(key, now);

  /**
   * Answers from the short cache, or computes, serializes with the route's schema and keeps the
   * bytes with their ETag and compressed forms (decision 0029); 304 when the client has them.
   * The answer lane then takes this URL's next reads while the answer is fresh (decision 0035).
   */
  const cached = async (
    request: FastifyRequest,
    reply: FastifyReply,
    locationId: string,
    key: string,
    compute: () => Promise<{ salesOpenAt: string | null }>,
  ) => {
    const built = await cache.getOrCompute(key, locationId, app.clock.now(), async (previous) => {
      const at = app.clock.now().getTime();
      const answer = await compute();
      const opensAt = answer.salesOpenAt ? Date.parse(answer.salesOpenAt) : null;
      // The route's zod serializer (fastify-type-provider-zod) for 200, always JSON text. Named, not
      // taken from the reply: a background refresh outlives the reply that started it, which may
      // have answered 304 meanwhile. A "not open yet" answer stops being true at the opening
      // instant: the cache keeps it no longer.
      const body = await buildAnswer(Buffer.from(reply.serializeInput(answer, '200') as string), previous);
      return { body, validUntil: opensAt !== null && opensAt > at ? opensAt : null };
    });
    const outcome = prepareBuilt(request, reply, built);
    // The next reads of this URL with a fresh answer need none of the above (decision 0035).
    app.answerLane.remember(request, reply, key, servable);
    return sendBuilt(reply, outcome);
  };

  r.get(
    '/booking-slot/:id/available-dates',
    {
      config: customer,
      schema: {
        tags: ['availability'],
        summary: 'Bookable sessions left per local day',
        params: locationParamsSchema,
        querystring: availableDatesQuerySchema,
        response: { 200: availableDatesSchema, ...notModified, ...notFound },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const key = `dates|${req.params.id}|${q.slotTypeId}|${q.from ?? ''}|${q.to ?? ''}`;
      return cached(req, reply, req.params.id, key, () => getAvailableDates(app, req.params.id, q));
    },
  );

  r.get(
    '/booking-slot/:id/available-slots',
    {
      config: customer,
      schema: {
        tags: ['availability'],
        summary: "Sessions and breaks of one day in the location's zone",
        params: locationParamsSchema,
        querystring: availableSlotsQuerySchema,
        response: { 200: availableSlotsSchema, ...notModified, ...notFound },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const key = `slots|${req.params.id}|${q.date}|${q.slotTypeId ?? ''}|${q.filter}`;
      return cached(req, reply, req.params.id, key, () => getAvailableSlots(app, req.params.id, q));
    },
  );

  r.get(
    '/booking-slot/:id/slots/:slotId',
    {
      config: customer,
      schema: {
        tags: ['availability'],
        summary: 'One slot',
        params: slotParamsSchema,
        response: { 200: slotAnswerSchema, ...notFound },
      },
    },
    async (req) => getSlot(app, req.params.id, req.params.slotId),
  );
}
