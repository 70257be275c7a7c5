/**
 * App-check enforcement (API.md "Conventions"): every /api/v1 route sends `X-App-Check: <token>`
 * (from POST /app-check/exchange) except /health, /ready, /openapi.json, /docs, /app-check/*,
 * /webhooks/* and /dev/*. A route opts out with `config: { appCheck: false }`.
 * APP_CHECK_MODE: enforce → 401 APP_CHECK_REQUIRED (no header) / APP_CHECK_INVALID (bad or
 * expired token); monitor → the same checks, only logged; off → nothing.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { errorBodySchema } from '@kringle/contracts/errors';
import type { AppError } from '../lib/app-error';
import { errors } from '../lib/errors';
import { VerifiedTokenCache } from '../lib/verified-token-cache';
import { verifyAppCheckToken } from '../modules/app-check/app-check.service';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** false: this route does not need X-App-Check (e.g. a callback from another server). */
    appCheck?: boolean;
  }
}

const EXEMPT = [
  /^\/api\/v1\/(health|ready|openapi\.json)\/?$/,
  /^\/api\/v1\/docs(\/|$)/,
  /^\/api\/v1\/(app-check|webhooks|dev)\//,
];

export function requiresAppCheck(url: string | undefined, config: { appCheck?: boolean } | undefined): boolean {
  if (!url || !url.startsWith('/api/v1/') || config?.appCheck === false) return false;
  return !EXEMPT.some((pattern) => pattern.test(url));
}

export const appCheckPlugin = fp(async (app: FastifyInstance) => {
  const mode = app.config.APP_CHECK_MODE;

  // OpenAPI: every protected operation lists the appCheck scheme next to whatever else it needs.
  // Done once all routes exist, so other plugins' onRoute security (e.g. idToken) is kept.
  const documented: RouteOptions[] = [];
  app.addHook('onRoute', (route) => {
    if (route.schema && !route.schema.hide && requiresAppCheck(route.url, route.config)) {
      documented.push(route);
      // Any such call can be refused with 401 APP_CHECK_REQUIRED / APP_CHECK_INVALID.
      const response = (route.schema.response ??= {}) as Record<string, unknown>;
      response[401] ??= errorBodySchema;
    }
  });
  app.addHook('onReady', async () => {
    for (const route of documented) {
      const schema = route.schema as { security?: Record<string, string[]>[] };
      schema.security = (schema.security?.length ? schema.security : [{}]).map((req) => ({ ...req, appCheck: [] }));
    }
  });

  if (mode === 'off') return;
  const verified = new VerifiedTokenCache<true>();
  const verify = async (token: string) =>
    (await verifyAppCheckToken(token, app.secrets.appCheckSecret, app.clock)) ? (true as const) : null;
  // Callback style: a token this process verified before (most requests) costs no promise.
  const tokenOf = (headers: IncomingHttpHeaders) => {
    const header = headers['x-app-check'];
    return typeof header === 'string' ? header.trim() : '';
  };
  const verifiedBefore = (token: string, nowMs: number) => token !== '' && verified.peek(token, nowMs) === true;
  app.addHook('onRequest', function appCheck(request, _reply, done) {
    if (!requiresAppCheck(request.routeOptions.url, request.routeOptions.config)) return done();
    const token = tokenOf(request.headers);
    if (verifiedBefore(token, app.clock.now().getTime())) return done();
    check(request, token).then(() => done(), done);
  });
  // The same decision for the answer lane (decision 0035): a token verified before, or no check due.
  app.answerLane.addGate('app-check', function appCheckGate(raw, route, nowMs) {
    return !requiresAppCheck(route.url, route.config) || verifiedBefore(tokenOf(raw.headers), nowMs);
  });

  async function check(request: FastifyRequest, token: string): Promise<void> {
    let failure: AppError | null = null;
    if (!token) {
      failure = errors.appCheckRequired();
    } else if (!(await verified.verify(token, app.clock.now().getTime(), verify))) {
      failure = errors.appCheckInvalid();
    }
    if (!failure) return;
    if (mode === 'monitor') {
      request.log.warn({ appCheck: failure.code, route: request.routeOptions.url }, 'app check failed (monitor mode)');
      return;
    }
    throw failure;
  }
});
