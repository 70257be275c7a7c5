import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import fp from 'fastify-plugin';
import { API_ROOT } from '../lib/api-root';
import { notFound } from '../lib/errors';
import { markPublicScope } from './auth';

const DEFAULT_DIST = path.resolve(API_ROOT, '../web/dist');

/** Route → lazy chunks of its first screen, written by the web build (apps/web/vite.config.ts). */
function routePreloads(dist: string): Record<string, string[]> {
  try {
    return JSON.parse(fs.readFileSync(path.join(dist, '.vite', 'route-preloads.json'), 'utf8')) as Record<
      string,
      string[]
    >;
  } catch {
    return {};
  }
}

/**
 * Subresource Integrity for our own bundles (decision 0098, PCI DSS SAQ A): each `/assets/*.js`
 * or `.css` the page names gets `integrity="sha384-…"`, worked out once per file per process. The
 * names carry a content hash, so a file never changes under its name: one that does (tampered on
 * the disk or on the way) no longer matches what this process first served and the browser
 * refuses it; the payment-page check reports it.
 */
const integrityOf = new Map<string, string>();
function integrity(dist: string, href: string): string | null {
  const file = path.join(dist, href);
  let known = integrityOf.get(file);
  if (!known) {
    try {
      known = `sha384-${createHash('sha384').update(fs.readFileSync(file)).digest('base64')}`;
    } catch {
      return null;
    }
    integrityOf.set(file, known);
  }
  return known;
}
const ASSET_TAG = /<(script|link)\b([^>]*?)\s(src|href)="(\/assets\/[\w.-]+\.(?:js|css))"([^>]*)>/g;
function withIntegrity(html: string, dist: string): string {
  return html.replace(
    ASSET_TAG,
    (tag: string, name: string, before: string, attr: string, href: string, after: string) => {
      if (/\sintegrity=/.test(tag)) return tag;
      const sri = integrity(dist, href);
      const cors = /\scrossorigin\b/.test(tag) ? '' : ' crossorigin';
      return sri ? `<${name}${before} ${attr}="${href}" integrity="${sri}"${cors}${after}>` : tag;
    },
  );
}

/** The staff app (issue 19) is its own entry of the web build: /staff and everything under it. */
const isStaffPage = (pathname: string) => pathname === '/staff' || pathname.startsWith('/staff/');

/**
 * index.html (staff.html under /staff), with `<link rel="modulepreload">` for the lazy chunks of
 * the requested route, so a phone fetches the page alongside the entry rather than after it.
 * Read per request (a few kB), like the assets, so a rebuild is served at once.
 */
function sendIndex(reply: FastifyReply, dist: string, url: string) {
  const pathname = url.split(/[?#]/, 1)[0]!.replace(/\/+$/, '') || '/';
  const page = isStaffPage(pathname) && fs.existsSync(path.join(dist, 'staff.html')) ? 'staff.html' : 'index.html';
  const html = fs.readFileSync(path.join(dist, page), 'utf8');
  const links = (routePreloads(dist)[pathname] ?? [])
    .filter((href) => /^\/assets\/[\w.-]+\.js$/.test(href))
    .map((href) => `<link rel="modulepreload" crossorigin href="${href}">`)
    .join('');
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-cache')
    .send(withIntegrity(links ? html.replace('</head>', `${links}</head>`) : html, dist));
}

/**
 * Serves the built web app and answers unknown paths: JSON 404 under /api, the SPA's
 * index.html elsewhere (the web app shows its own unknown-path page).
 */
export const webStaticPlugin = fp(async (app: FastifyInstance) => {
  const dist = app.config.WEB_DIST_DIR ? path.resolve(app.config.WEB_DIST_DIR) : DEFAULT_DIST;
  const serve = app.config.SERVE_WEB && fs.existsSync(path.join(dist, 'index.html'));
  if (serve) {
    // The files' routes come from @fastify/static, which cannot carry our route config.
    await app.register(async (files) => {
      markPublicScope(files);
      await files.register(fastifyStatic, {
        root: dist,
        // Looked up per request, so rebuilding the web app never leaves a running server with stale routes.
        wildcard: true,
        index: false,
        // The web build writes .br and .gz beside each asset (apps/web/vite.config.ts precompress):
        // sent to browsers that accept them, the original otherwise.
        preCompressed: true,
        // The build's own records (.vite/manifest.json, route-preloads.json) are not for browsers,
        // nor are source maps (the web build keeps them out of dist/; this holds for any other build).
        allowedPath: (pathname) =>
          !pathname.endsWith('.map') && !pathname.split('/').some((part) => part.startsWith('.')),
        setHeaders: (res, file) => {
          // Hashed assets never change; index.html always revalidates.
          res.header(
            'cache-control',
            file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache',
          );
        },
      });
    });
    // The SPA's entry: without this the wildcard treats `/` as a directory listing and refuses it.
    app.get('/', { config: { auth: 'public' }, schema: { hide: true } }, (request, reply) =>
      sendIndex(reply, dist, request.url),
    );
  } else if (app.config.SERVE_WEB) {
    app.log.warn({ dist }, 'web app not built: run `npm run build` to serve it');
  }
  app.setNotFoundHandler((request, reply) => {
    const isApi = request.url.startsWith('/api/');
    // A missing or refused file is a 404, not the app's page: a stale chunk name after a deploy
    // must fail as a script load (the app reloads), not parse HTML as JavaScript.
    const pathname = request.url.split(/[?#]/, 1)[0]!;
    // Nor is /metrics, which lives on its own listener only (decision 0088): a scraper pointed at
    // the public port is told so, not handed the app's page.
    if (pathname.startsWith('/assets/') || pathname.endsWith('.map') || pathname === '/metrics')
      throw notFound('That file');
    if (!isApi && serve && (request.method === 'GET' || request.method === 'HEAD')) {
      return sendIndex(reply, dist, request.url);
    }
    throw notFound(isApi ? 'That API path' : 'That page');
  });
});
