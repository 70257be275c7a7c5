import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import cors from '@fastify/cors';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import { ERROR_CATALOGUE } from '@kringle/contracts/error-catalogue';
import { errors } from '../lib/errors';
import { CSP_REPORT_PATH, paymentPageMatcher, readInventory } from './payment-page';
import { unstorableHeader, unstorablePath, unstorableProblem, unstorableUrlPart } from '../lib/storable-text';

const unstorableBody = (path: string) => ({
  error: ERROR_CATALOGUE.VALIDATION_FAILED.text,
  code: 'VALIDATION_FAILED',
  details: [{ path, message: unstorableProblem }],
});
const unstorableInput = (path: string) => errors.validation(unstorableBody(path).details);

/**
 * What an API answer carries (decision 0035): it is data, never a page, so only the headers that
 * bear on data (OWASP's REST Security Cheat Sheet): no sniffing it into a page, no framing, no
 * script or anything else if a browser ever renders it, no reading it from another site, no
 * referrer, and (ASVS 8.2.1: API answers carry tokens and personal data) no browser or proxy keeps
 * it unless a route says otherwise (receipts, terms and availability answers set their own). The
 * web app's pages keep helmet's full set below. HSTS is added in production.
 */
const API_HEADERS = {
  'content-security-policy': "default-src 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
  'cache-control': 'no-store',
} as const;

/**
 * Fastify's `frameworkErrors` option: URLs refused before routing (bad percent-encoding, a path
 * parameter over maxParamLength) skip every hook, so without this they would answer Fastify's
 * own body and no security headers. API.md's error body instead, with the headers that matter.
 */
export function frameworkErrors(_error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // Well-formed percent-encoding of something that is not text (an encoded surrogate, invalid
  // UTF-8): a bad value like any other, answered as the hook below answers a NUL.
  const where = /%(?![0-9a-f]{2})/i.test(request.url) ? null : unstorableUrlPart(request.url);
  return reply
    .code(400)
    .headers(API_HEADERS)
    .type('application/json; charset=utf-8')
    .send(where ? unstorableBody(where) : { error: 'That address is not valid.', code: 'BAD_REQUEST' });
}

/**
 * Fastify's `clientErrorHandler`: requests Node's HTTP parser refuses (a NUL or another control
 * character in a header, a broken request line) never reach a hook. The same contract body as
 * everywhere else instead of Fastify's own; 408 and 431 keep their status.
 */
export function clientErrors(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, body] =
    err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, { error: 'The request took too long to arrive.', code: 'BAD_REQUEST' }]
      : err.code === 'HPE_HEADER_OVERFLOW'
        ? [431, { error: 'The request headers are too large.', code: 'BAD_REQUEST' }]
        : err.code === 'HPE_INVALID_HEADER_TOKEN'
          ? [400, unstorableBody('headers')]
          : [400, { error: 'That request is not valid.', code: 'BAD_REQUEST' }];
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Length: ` +
        `${Buffer.byteLength(text)}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `X-Content-Type-Options: nosniff\r\nCache-Control: no-store\r\nConnection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(err);
}

/** The headers a helmet middleware sets, recorded once from a stand-in response. */
function headersOf(middleware: ReturnType<typeof helmet>): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: unknown) => void (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => void delete headers[name.toLowerCase()],
  };
  middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

/**
 * Browser features this app may use (Permissions-Policy), the same on every response. `payment`
 * stays open to Stripe.js's frames: its Payment Element offers Apple Pay / Google Pay through the
 * Payment Request API inside js.stripe.com iframes, which a top-level `payment=(self)` would block.
 */
const PERMISSIONS_POLICY =
  'camera=(), microphone=(), geolocation=(), payment=(self "https://js.stripe.com"), usb=(), display-capture=()';
/**
 * The camera is allowed on one path only: the staff app under /staff (issue 19) scans the
 * bookings' QR codes there. Everything else (the customer app, the API) never needs it.
 */
const STAFF_PERMISSIONS_POLICY = PERMISSIONS_POLICY.replace('camera=()', 'camera=(self)');
const isStaffPath = (url: string) => url === '/staff' || url.startsWith('/staff/') || url.startsWith('/staff?');
/** Files the e-mails show (mailLogoUrl): webmail loads them from its own origin, so any site may. */
const MAIL_ASSETS: ReadonlySet<string> = new Set(['/logo.png']);

/** Security headers and CORS limited to the configured app origins. */
export const securityPlugin = fp(async (app: FastifyInstance) => {
  const stripe = ['https://js.stripe.com', 'https://*.stripe.com'];
  // The local Stripe sandbox (dev and tests) answers on a loopback port; production never needs it.
  const local = app.config.NODE_ENV === 'production' ? [] : ['http://127.0.0.1:*', 'http://localhost:*'];
  // helmet's headers are the same on every response (no nonces), so they are worked out once and
  // set as one object per request: @fastify/helmet rebuilt the middleware (re-parsing the CSP) and
  // set each header through Node on every request, which cost more than a cached availability read.
  const securityHeaders = headersOf(
    helmet({
      contentSecurityPolicy: {
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...stripe, 'https://www.googletagmanager.com'],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
          connectSrc: ["'self'", ...stripe, 'https://*.google-analytics.com', ...local],
          frameSrc: ["'self'", ...stripe, ...local],
          workerSrc: ["'self'", 'blob:'],
          formAction: ["'self'", ...local],
          upgradeInsecureRequests: null,
        },
      },
      crossOriginEmbedderPolicy: false,
      hsts: app.config.NODE_ENV === 'production',
    }),
  );
  const pageHeaders = { ...securityHeaders, 'permissions-policy': PERMISSIONS_POLICY };
  // The payment pages (decision 0098, PCI DSS SAQ A): scripts from our origin and Stripe's only, as
  // the inventory lists them; no analytics (its script host and its beacons are left out, and the
  // web app loads none there); violations reported to CSP_REPORT_PATH and counted.
  const inventory = readInventory();
  const isPaymentPage = paymentPageMatcher(inventory.pages);
  const paymentPageHeaders = {
    ...headersOf(
      helmet({
        contentSecurityPolicy: {
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: inventory.scriptSrc,
            styleSrc: ["'self'", "'unsafe-inline'"],
            imgSrc: ["'self'", 'data:', 'blob:', 'https:'],
            connectSrc: ["'self'", ...stripe, ...local],
            frameSrc: ["'self'", ...stripe, ...local],
            workerSrc: ["'self'", 'blob:'],
            formAction: ["'self'", ...local],
            reportUri: [CSP_REPORT_PATH],
            reportTo: ['csp'],
            upgradeInsecureRequests: null,
          },
        },
        crossOriginEmbedderPolicy: false,
        hsts: app.config.NODE_ENV === 'production',
      }),
    ),
    'permissions-policy': PERMISSIONS_POLICY,
    'reporting-endpoints': `csp="${app.config.PUBLIC_URL}${CSP_REPORT_PATH}"`,
  };
  const staffPageHeaders = { ...securityHeaders, 'permissions-policy': STAFF_PERMISSIONS_POLICY };
  const mailAssetHeaders = { ...pageHeaders, 'cross-origin-resource-policy': 'cross-origin' };
  const hsts = securityHeaders['strict-transport-security'];
  const apiHeaders = { ...API_HEADERS, ...(hsts ? { 'strict-transport-security': hsts } : {}) };
  app.addHook('onRequest', function securityHeaders(request, reply, done) {
    const url = request.url;
    reply.headers(
      url.startsWith('/api/')
        ? apiHeaders
        : isStaffPath(url)
          ? staffPageHeaders
          : MAIL_ASSETS.has(url)
            ? mailAssetHeaders
            : isPaymentPage(url)
              ? paymentPageHeaders
              : pageHeaders,
    );
    // Before any other hook (auth, app check, rate limits, idempotency keys) or route reads them:
    // a NUL or a lone surrogate in the path, the query string or a header is refused here, once
    // for every route, instead of failing in PostgreSQL as a 500.
    const where = unstorableUrlPart(url) ?? unstorableHeader(request.headers);
    if (where) return done(unstorableInput(where));
    done();
  });
  // The answer lane (decision 0035) replays the headers above as the route sent them, and takes
  // no request CORS answers differently (one with an Origin) or this hook would refuse. The URL
  // itself passed this hook when the route answered it first, and a strict parser's headers cannot
  // hold what it refuses (decision 0077).
  const lane = app.answerLane;
  lane.addGate('security', function securityGate(raw) {
    return raw.headers.origin === undefined && (lane.strictParser || unstorableHeader(raw.headers) === null);
  });
  const appOrigins = app.config.APP_ORIGINS;
  await app.register(cors, {
    // No Origin, no CORS headers: a request without one is same-origin or not from a browser, and
    // Allow-Credentials and Expose-Headers would only be bytes to write (decision 0038).
    origin: (origin: string | undefined, cb: (error: Error | null, origin: string[] | false) => void) =>
      cb(null, origin === undefined ? false : appOrigins),
    credentials: true,
    methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
    // If-None-Match / ETag: the web app revalidates availability answers itself (decision 0029).
    allowedHeaders: ['Authorization', 'Content-Type', 'X-App-Check', 'Idempotency-Key', 'If-None-Match'],
    exposedHeaders: ['Retry-After', 'X-Request-Id', 'ETag'],
    maxAge: 600,
  });

  // The same for JSON bodies, once parsed (JSON can spell a NUL or a lone surrogate as \u escapes).
  // Callback style, like every per-request hook here: an async hook costs a promise per request.
  app.addHook('preValidation', function storableBody(request, _reply, done) {
    if (typeof request.body !== 'object' || request.body === null || Buffer.isBuffer(request.body)) return done();
    const path = unstorablePath(request.body, 'body');
    if (!path) return done();
    done(unstorableInput(path));
  });
});
