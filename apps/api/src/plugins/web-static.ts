import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { notFound } from '../lib/app-error';

const DEFAULT_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../web/dist');

/**
 * Serves the built web app and answers unknown paths: JSON 404 under /api, the SPA's
 * index.html elsewhere (the web app shows its own unknown-path page).
 */
export const webStaticPlugin = fp(async (app: FastifyInstance) => {
  const dist = app.config.WEB_DIST_DIR ? path.resolve(app.config.WEB_DIST_DIR) : DEFAULT_DIST;
  const serve = app.config.SERVE_WEB && fs.existsSync(path.join(dist, 'index.html'));
  if (serve) {
    await app.register(fastifyStatic, {
      root: dist,
      // Looked up per request, so rebuilding the web app never leaves a running server with stale routes.
      wildcard: true,
      index: false,
      setHeaders: (res, file) => {
        // Hashed assets never change; index.html always revalidates.
        res.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    // The SPA's entry: without this the wildcard treats `/` as a directory listing and refuses it.
    app.get('/', { schema: { hide: true } }, (_req, reply) => reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').sendFile('index.html'));
  } else if (app.config.SERVE_WEB) {
    app.log.warn({ dist }, 'web app not built: run `npm run build` to serve it');
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/api/');
    if (!isApi && serve && (request.method === 'GET' || request.method === 'HEAD')) {
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').sendFile('index.html');
    }
    throw notFound(isApi ? 'That API path' : 'That page');
  });
});
