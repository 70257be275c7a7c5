import swagger from '@fastify/swagger';
import scalar from '@scalar/fastify-api-reference';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { markPublicScope } from './auth';
import { REFRESH_COOKIE } from '../modules/accounts/refresh-cookie';
import { finishDocument } from './openapi-document';

/** OpenAPI 3.1 generated from the same zod schemas that validate requests (API.md). */
export const openapiPlugin = fp(async (app: FastifyInstance) => {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${app.config.BRAND_NAME} API`,
        version: '1.0.0',
        // Closed source; SPDX's form for a licence not on its list.
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
        description:
          'Bookings for photos with Santa. Errors are `{error, code, details?}`. Every call except /health, /ready, ' +
          '/openapi.json, /app-check/* and /webhooks/* sends `X-App-Check`; authenticated calls send `Authorization: ' +
          'Bearer <idToken>`.',
      },
      servers: [{ url: '/' }],
      components: {
        securitySchemes: {
          idToken: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          appCheck: { type: 'apiKey', in: 'header', name: 'X-App-Check' },
          cookieAuth: {
            type: 'apiKey',
            in: 'cookie',
            name: REFRESH_COOKIE,
            description:
              'The httpOnly refresh-token cookie set by sign-in (path /api/v1/auth); used by /auth/refresh and ' +
              '/auth/sign-out only.',
          },
        },
      },
    },
    transform: jsonSchemaTransform,
    transformObject: (input) => finishDocument(jsonSchemaTransformObject(input)),
  });
});

/** `/api/v1/openapi.json` and a docs page at `/api/v1/docs` (registered inside the /api/v1 prefix). */
export async function openapiRoutes(app: FastifyInstance) {
  // The docs page runs its own inline bootstrap script, which the app-wide CSP forbids.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.url.startsWith('/api/v1/docs')) reply.removeHeader('content-security-policy');
    done(null, payload);
  });
  app.get('/openapi.json', { config: { auth: 'public' }, schema: { hide: true } }, async () => app.swagger());
  // The docs page's routes come from the plugin, which cannot carry our route config.
  await app.register(async (docs) => {
    markPublicScope(docs);
    await docs.register(scalar, {
      routePrefix: '/docs',
      configuration: { url: '/api/v1/openapi.json', title: `${app.config.BRAND_NAME} API` },
    });
  });
}
