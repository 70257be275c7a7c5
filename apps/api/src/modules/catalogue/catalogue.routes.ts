import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { addOnListSchema, addOnsQuerySchema, locationListSchema, packageListSchema, packagesQuerySchema } from '@kringle/contracts/catalogue';
import { errorBodySchema } from '@kringle/contracts/errors';
import { getAddOns, getLocations, getPackages } from './catalogue.service';

/** The catalogue (API.md "Catalogue": locations, packages, add-ons): customers only. */
export async function catalogueRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const customer = { auth: 'customer' as const };
  const notFound = { 404: errorBodySchema };

  r.get('/common/locations', { config: customer, schema: { tags: ['catalogue'], summary: 'Locations with their session types', response: { 200: locationListSchema } } }, async () => ({
    items: await getLocations(app.db, app.clock),
  }));

  r.get(
    '/product/packages',
    { config: customer, schema: { tags: ['catalogue'], summary: 'Photo packages', querystring: packagesQuerySchema, response: { 200: packageListSchema, ...notFound } } },
    async (req) => ({ items: await getPackages(app.db, req.query) }),
  );

  r.get(
    '/product/addons',
    { config: customer, schema: { tags: ['catalogue'], summary: 'Add-ons', querystring: addOnsQuerySchema, response: { 200: addOnListSchema, ...notFound } } },
    async (req) => ({ items: await getAddOns(app.db, req.query) }),
  );
}
