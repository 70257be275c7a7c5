import type { FastifyInstance, FastifyReply } from 'fastify';
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
import { availabilityCacheOf } from './availability.cache';
import { getAvailableDates, getAvailableSlots, getSlot } from './availability.service';

/** Availability (API.md "Catalogue": available dates, slots and one slot): customers only. */
export async function availabilityRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const customer = { auth: 'customer' as const };
  const notFound = { 404: errorBodySchema };
  const cache = availabilityCacheOf(app.db, app.config.AVAILABILITY_CACHE_MS);

  /** Answers from the short cache, or computes, serializes with the route's schema and keeps the text. */
  const cached = async (reply: FastifyReply, locationId: string, key: string, compute: () => Promise<{ salesOpenAt: string | null }>) => {
    const body = await cache.getOrCompute(key, locationId, app.clock.now(), async () => {
      const at = app.clock.now().getTime();
      const answer = await compute();
      const opensAt = answer.salesOpenAt ? Date.parse(answer.salesOpenAt) : null;
      // The route's zod serializer (fastify-type-provider-zod) always produces JSON text. A "not open
      // yet" answer stops being true at the opening instant: the cache keeps it no longer.
      return { body: Buffer.from(reply.serialize(answer) as string), validUntil: opensAt !== null && opensAt > at ? opensAt : null };
    });
    return reply.type('application/json; charset=utf-8').send(body);
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
        response: { 200: availableDatesSchema, ...notFound },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const key = `dates|${req.params.id}|${q.slotTypeId}|${q.from ?? ''}|${q.to ?? ''}`;
      return cached(reply, req.params.id, key, () => getAvailableDates(app, req.params.id, q));
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
        response: { 200: availableSlotsSchema, ...notFound },
      },
    },
    async (req, reply) => {
      const q = req.query;
      const key = `slots|${req.params.id}|${q.date}|${q.slotTypeId ?? ''}|${q.filter}`;
      return cached(reply, req.params.id, key, () => getAvailableSlots(app, req.params.id, q));
    },
  );

  r.get(
    '/booking-slot/:id/slots/:slotId',
    { config: customer, schema: { tags: ['availability'], summary: 'One slot', params: slotParamsSchema, response: { 200: slotAnswerSchema, ...notFound } } },
    async (req) => getSlot(app, req.params.id, req.params.slotId),
  );
}
