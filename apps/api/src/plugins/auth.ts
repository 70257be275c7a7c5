import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { errorBodySchema } from '@kringle/contracts/errors';
import { errors } from '../lib/errors';
import { VerifiedTokenCache } from '../lib/verified-token-cache';
import { IdTokens, type AuthClaims } from '../modules/accounts/id-tokens';
import { SessionCutoffs } from '../modules/accounts/session-cutoffs';
import { findUserById } from '../modules/accounts/users.repository';

/**
 * Who may call a route, declared on the route: `config: { auth: 'public' }`.
 * - `customer`: a valid ID token of a verified customer: 403 EMAIL_NOT_VERIFIED otherwise. The
 *   default: a route that declares nothing is refused without a token, so forgetting the
 *   declaration fails closed (the access-control suite then lists it as a token route).
 * - `signed-in`: a valid ID token, e-mail verification not needed (API.md "unverified ok").
 * - `public`: no token needed; every public route says so on itself, or is registered inside a
 *   `markPublicScope` scope (routes that plugins add for us: static files, the docs page).
 * - `staff`: a valid ID token with the `dashboard_user` claim (the staff app, issue 19): 403
 *   STAFF_ONLY for a customer's token. Staff accounts are made by the brand, so their e-mail is
 *   not checked.
 * Every non-public level answers 401 UNAUTHENTICATED for a missing, invalid or expired token.
 * The customer levels answer 403 STAFF_NOT_ALLOWED for a staff token: staff work in the staff app.
 * A token issued before its account's sessions ended (deletion, password change or reset, sign out
 * everywhere, deactivation) is refused with 401 at once, from memory (`SessionCutoffs`, decision 0063).
 */
export const AUTH_ACCESS = ['public', 'signed-in', 'customer', 'staff'] as const;
export type AuthAccess = (typeof AUTH_ACCESS)[number];
export const DEFAULT_AUTH_ACCESS: AuthAccess = 'customer';

declare module 'fastify' {
  interface FastifyContextConfig {
    auth?: AuthAccess;
  }
  interface FastifyRequest {
    /** The verified caller on non-public routes; null on public ones. Use `authOf(request)`. */
    auth: AuthClaims | null;
  }
  interface FastifyInstance {
    idTokens: IdTokens;
    /** Accounts whose sessions ended lately: their older tokens are refused (decision 0063). */
    sessionCutoffs: SessionCutoffs;
  }
}

const PUBLIC_SCOPE = Symbol('kringle.publicScope');

/**
 * Makes every route registered in this (encapsulated) scope public: for plugins whose routes
 * cannot carry our config (@fastify/static's files, the API docs page). Call it first thing in
 * a scope that holds nothing else.
 */
export function markPublicScope(scope: FastifyInstance): void {
  Object.defineProperty(scope, PUBLIC_SCOPE, { value: true });
}

/**
 * The `onRoute` hook that settles each route's access once, when it is registered: its own
 * declaration, else public in a public scope or for @fastify/cors's preflight route (browsers
 * send no credentials on a preflight), else the default. Added before any plugin (app.ts), so
 * it sees every route. Also documents the bearer token and the auth errors in OpenAPI.
 */
export function settleRouteAccess(this: FastifyInstance, route: RouteOptions): void {
  const declared = route.config?.auth;
  const preflight = route.method === 'OPTIONS' && route.url === '*';
  const access =
    declared ??
    ((this as unknown as Record<symbol, boolean>)[PUBLIC_SCOPE] || preflight ? 'public' : DEFAULT_AUTH_ACCESS);
  if (!AUTH_ACCESS.includes(access)) throw new Error(`Route ${route.url}: unknown auth access '${String(access)}'`);
  route.config = { ...route.config, auth: access };
  if (access === 'public' || !route.schema) return;
  route.schema.security ??= [{ idToken: [] }];
  const response = (route.schema.response ??= {}) as Record<string, unknown>;
  response[401] ??= errorBodySchema;
  response[403] ??= errorBodySchema;
}

/** The caller of a route that declared `signed-in`, `customer` or `staff` access. */
export function authOf(request: FastifyRequest): AuthClaims {
  if (!request.auth) throw errors.unauthenticated();
  return request.auth;
}

/** A verified caller that needs no further check (no database read) for this access level. */
const admits = (access: AuthAccess, claims: AuthClaims) =>
  access === 'staff' ? claims.staff : !claims.staff && (access !== 'customer' || claims.emailVerified);

function bearerToken(header: string | undefined): string | null {
  const match = header ? /^Bearer ([\w-]+\.[\w-]+\.[\w-]*)$/i.exec(header.trim()) : null;
  return match?.[1] ?? null;
}

export const authPlugin = fp(
  async (app: FastifyInstance) => {
    // The refresh cookie needs it; registered here (once) so accounts routes can rely on it.
    if (!app.hasDecorator('parseCookie')) await app.register(cookie);
    app.decorate(
      'idTokens',
      await IdTokens.create({
        privateKeyPem: app.secrets.jwtPrivateKeyPem,
        issuer: app.config.JWT_ISSUER,
        audience: app.config.JWT_AUDIENCE,
        clock: app.clock,
      }),
    );
    app.decorateRequest('auth', null);
    const verified = new VerifiedTokenCache<AuthClaims>(undefined, 'Bearer ');
    const cutoffs = new SessionCutoffs();
    app.decorate('sessionCutoffs', cutoffs);

    /**
     * The caller, when the Authorization header is "Bearer " and a token this process verified
     * before, and it admits them to `access` (no promise, no query). No pattern runs: a token that
     * verified came through bearerToken's, and only the same bytes hit (1 µs a request saved on a
     * 900-character header, decision 0037), compared whole (decision 0077). Anything else (another
     * spelling of "Bearer", spaces) misses and takes bearerToken's way, as before.
     */
    const knownCaller = (header: string | undefined, access: AuthAccess, nowMs: number) => {
      const known = header === undefined ? undefined : verified.peekSent(header, nowMs);
      return known && admits(access, known) && !cutoffs.refuses(known) ? known : undefined;
    };

    // Callback style: a token this process verified before (most requests) costs no promise.
    app.addHook('onRequest', function authenticateCaller(request, _reply, done) {
      // settleRouteAccess gave every route its access; the not-found handler (unknown paths, the
      // web app's deep links) has none and needs none.
      const access = request.routeOptions.config.auth ?? (request.is404 ? 'public' : DEFAULT_AUTH_ACCESS);
      if (access === 'public') return done();
      const header = request.headers.authorization;
      const known = knownCaller(header, access, app.clock.now().getTime());
      if (known) {
        request.auth = known;
        return done();
      }
      authenticate(request, access, bearerToken(header)).then(() => done(), done);
    });
    // The same decision for the answer lane (decision 0035), which has only the raw request.
    app.answerLane.addGate('auth', function authGate(raw, route, nowMs) {
      const access = route.config.auth ?? DEFAULT_AUTH_ACCESS;
      return access === 'public' || knownCaller(raw.headers.authorization, access, nowMs) !== undefined;
    });

    async function authenticate(request: FastifyRequest, access: AuthAccess, token: string | null): Promise<void> {
      const claims = token
        ? await verified.verify(token, app.clock.now().getTime(), (t) => app.idTokens.verify(t))
        : null;
      if (!claims || cutoffs.refuses(claims)) throw errors.unauthenticated();
      if (access === 'staff') {
        if (!claims.staff) throw errors.staffOnly();
        request.auth = claims;
        return;
      }
      if (claims.staff) throw errors.staffNotAllowed();
      if (access === 'customer' && !claims.emailVerified) {
        // A token issued before the user clicked the link still says unverified: the database decides.
        const user = await findUserById(app.db, claims.userId);
        if (!user) throw errors.unauthenticated();
        if (!user.emailVerifiedAt) throw errors.emailNotVerified();
        request.auth = { ...claims, emailVerified: true };
        return;
      }
      request.auth = claims;
    }
  },
  { name: 'auth' },
);
