import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { fingerprint, parseFormParams, type Params } from './form-params';
import { parseMultipart, type Upload } from './multipart';
import { randomToken } from './ids';
import type { IdempotencyStore } from './idempotency-store';
import type { RequestInfo } from './sandbox-state';
import { StripeError } from './stripe-errors';

export interface ApiKeys {
  secretKey: string;
  publishableKey: string;
}

export interface StripeCall {
  params: Params;
  /** The files of a multipart/form-data body (`POST /v1/files`), by field name. */
  uploads: Record<string, Upload>;
  /** Which of the account's keys authenticated the call. */
  keyKind: 'secret' | 'publishable';
  request: RequestInfo;
  pathParams: Record<string, string>;
}

export type StripeHandler = (call: StripeCall) => unknown;

export interface RouteDeps {
  keys: ApiKeys;
  apiVersion: string;
  idempotency: IdempotencyStore;
}

/**
 * Wraps an endpoint in what every Stripe v1 call goes through: API key authentication, the form
 * (or query) decoding, idempotency keys on POST, and Stripe's error body. Handlers run
 * synchronously against in-memory state, so two requests with one key can never interleave.
 */
export function stripeRoute(deps: RouteDeps, opts: { publishable?: boolean }, handler: StripeHandler) {
  return (req: FastifyRequest, reply: FastifyReply): void => {
    const requestId = `req_${randomToken(14)}`;
    void reply
      .header('request-id', requestId)
      .header('stripe-version', deps.apiVersion)
      .header('cache-control', 'no-cache, no-store');
    const send = (status: number, body: unknown) =>
      void reply
        .code(status)
        .type('application/json')
        .send(JSON.stringify(body, null, 2));
    try {
      const auth = authenticate(req, deps.keys, opts.publishable === true);
      if (req.method === 'POST' && /json/i.test(header(req, 'content-type') ?? '')) {
        throw new StripeError({
          status: 400,
          type: 'invalid_request_error',
          message: 'Invalid request: v1 endpoints take application/x-www-form-urlencoded bodies, not JSON.',
        });
      }
      const multipart = Buffer.isBuffer(req.body)
        ? parseMultipart(req.body, header(req, 'content-type') ?? '')
        : undefined;
      if (multipart === null)
        throw new StripeError({ status: 400, type: 'invalid_request_error', message: 'Invalid multipart body.' });
      const uploads = multipart?.uploads ?? {};
      const params = multipart
        ? parseFormParams(new URLSearchParams(multipart.fields).toString())
        : req.method === 'POST'
          ? parseFormParams(typeof req.body === 'string' ? req.body : '')
          : parseFormParams(rawQuery(req.url));
      const key = req.method === 'POST' ? header(req, 'idempotency-key') : undefined;
      const endpoint = `${req.method} ${req.url.split('?')[0]}`;
      // An upload's bytes belong to the request's fingerprint: a key reused for another file is refused.
      const print = fingerprint({ ...params, ...uploadDigests(uploads) });
      if (key !== undefined) {
        if (key.length > 255)
          throw new StripeError({
            status: 400,
            type: 'invalid_request_error',
            message: 'Idempotency keys can be at most 255 characters long.',
          });
        void reply.header('idempotency-key', key);
        const stored = deps.idempotency.lookup(auth.apiKey, key, endpoint, print);
        if (stored) {
          void reply.header('idempotent-replayed', 'true').header('original-request', stored.requestId);
          return send(stored.status, stored.body);
        }
      }
      const call: StripeCall = {
        params,
        uploads,
        keyKind: auth.kind,
        request: { id: requestId, idempotencyKey: key ?? null },
        pathParams: req.params as Record<string, string>,
      };
      let status = 200;
      let body: unknown;
      let save = true;
      try {
        body = handler(call);
      } catch (err) {
        if (!(err instanceof StripeError)) throw err;
        status = err.status;
        body = err.toBody(requestId);
        save = err.saveForIdempotency;
      }
      if (key !== undefined && save)
        deps.idempotency.save(auth.apiKey, key, { endpoint, fingerprint: print, status, body, requestId });
      send(status, body);
    } catch (err) {
      if (err instanceof StripeError) return send(err.status, err.toBody(requestId));
      req.log.error(err);
      send(
        500,
        new StripeError({
          status: 500,
          type: 'api_error',
          message: 'An unknown error occurred in the Stripe sandbox.',
        }).toBody(requestId),
      );
    }
  };
}

function uploadDigests(uploads: Record<string, Upload>): Params {
  return Object.fromEntries(
    Object.entries(uploads).map(([name, u]) => [`${name}#sha256`, createHash('sha256').update(u.data).digest('hex')]),
  );
}

function authenticate(
  req: FastifyRequest,
  keys: ApiKeys,
  allowPublishable: boolean,
): { apiKey: string; kind: 'secret' | 'publishable' } {
  const apiKey = bearerOrBasic(header(req, 'authorization'));
  if (!apiKey) {
    throw authError(
      'You did not provide an API key. You need to provide your API key in the Authorization header, using Bearer ' +
        "auth (e.g. 'Authorization: Bearer YOUR_SECRET_KEY').",
    );
  }
  if (apiKey === keys.secretKey) return { apiKey, kind: 'secret' };
  if (apiKey === keys.publishableKey) {
    if (allowPublishable) return { apiKey, kind: 'publishable' };
    throw authError('This API call cannot be made with a publishable API key. Please use a secret API key.');
  }
  throw authError(`Invalid API Key provided: ${redact(apiKey)}`);
}

function bearerOrBasic(value: string | undefined): string | null {
  if (!value) return null;
  const [scheme, credentials] = value.split(' ', 2);
  if (!credentials) return null;
  if (scheme?.toLowerCase() === 'bearer') return credentials.trim();
  // `curl -u sk_test_…:` sends the key as the Basic user name.
  if (scheme?.toLowerCase() === 'basic')
    return Buffer.from(credentials, 'base64').toString('utf8').split(':')[0] ?? null;
  return null;
}

function redact(key: string): string {
  const prefix = /^(sk|pk|rk)_(test|live)_/.exec(key)?.[0] ?? '';
  return `${prefix}${'*'.repeat(Math.max(0, key.length - prefix.length - 4))}${key.slice(-4)}`;
}

function authError(message: string): StripeError {
  return new StripeError({ status: 401, type: 'invalid_request_error', message });
}

function header(req: FastifyRequest, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function rawQuery(url: string): string {
  const i = url.indexOf('?');
  return i === -1 ? '' : url.slice(i + 1);
}
