import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  addOnListSchema,
  addOnsQuerySchema,
  locationListSchema,
  packageListSchema,
  packagesQuerySchema,
} from '@kringle/contracts/catalogue';
import { errorBodySchema } from '@kringle/contracts/errors';
import { publicCatalogueSchema } from '@kringle/contracts/public-catalogue';
import { z } from 'zod';
import { getAddOns, getLocations, getPackages } from './catalogue.service';
import { matchesEtag, PublicCatalogueCache } from './public-catalogue.service';

/** The catalogue (API.md "Catalogue": locations, packages, add-ons): customers only. */
export async function catalogueRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const customer = { auth: 'customer' as const };
  const notFound = { 404: errorBodySchema };

  // What a visitor can book, on /register and /login (issue 53): no account and no app check (the
  // page has none yet), the same bytes for everyone, cached here per season and by browsers.
  const visitorCatalogue = new PublicCatalogueCache(app.db, app.clock);
  r.get(
    '/common/catalogue',
    {
      config: { auth: 'public', appCheck: false },
      schema: {
        tags: ['catalogue'],
        summary: 'What a visitor can book: locations, dates, session types and all-in from prices',
        description:
          'Public, no app check. Cache-Control: public, max-age=60, with an ETag; If-None-Match with it answers 304. ' +
          'Built once per season version (and again when a session type runs out of sessions).',
        response: {
          200: publicCatalogueSchema,
          304: z.null().describe('Not modified: the copy named by If-None-Match is current'),
        },
      },
    },
    async (req, reply) => {
      const built = await visitorCatalogue.get();
      reply.header('cache-control', 'public, max-age=60').header('etag', built.etag);
      if (matchesEtag(req.headers['if-none-match'], built.etag)) return reply.code(304).send(null);
      return built.body;
    },
  );

  r.get(
    '/common/locations',
    {
      config: customer,
      schema: {
        tags: ['catalogue'],
        summary: 'Locations with their session types',
        response: { 200: locationListSchema },
      },
    },
    async () => ({
      items: await getLocations(app.db, app.clock),
    }),
  );

  r.get(
    '/product/packages',
    {
      config: customer,
      schema: {
        tags: ['catalogue'],
        summary: 'Photo packages',
        querystring: packagesQuerySchema,
        response: { 200: packageListSchema, ...notFound },
      },
    },
    async (req) => ({ items: await getPackages(app.db, req.query) }),
  );

  r.get(
    '/product/addons',
    {
      config: customer,
      schema: {
        tags: ['catalogue'],
        summary: 'Add-ons',
        querystring: addOnsQuerySchema,
        response: { 200: addOnListSchema, ...notFound },
      },
    },
    async (req) => ({ items: await getAddOns(app.db, req.query) }),
  );
}
