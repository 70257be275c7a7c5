import cookie from '@fastify/cookie';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errorBodySchema } from '@kringle/contracts/errors';
import { AppError } from '../lib/app-error';
import { VerifiedTokenCache } from '../lib/verified-token-cache';
import { IdTokens, type AuthClaims } from '../modules/accounts/id-tokens';
import { findUserById } from '../modules/accounts/users.repository';

/**
 * Who may call a route, declared on the route: `config: { auth: 'customer' }`.
 * - `public`: no token needed (the default when a route declares nothing).
 * - `signed-in`: a valid ID token, e-mail verification not needed (API.md "unverified ok").
 * - `customer`: a valid ID token of a verified customer: 403 EMAIL_NOT_VERIFIED otherwise.
 * Every non-public level answers 401 UNAUTHENTICATED for a missing, invalid or expired token
 * and 403 STAFF_NOT_ALLOWED for a staff (`dashboard_user`) token: this API serves customers only.
 */
export const AUTH_ACCESS = ['public', 'signed-in', 'customer'] as const;
export type AuthAccess = (typeof AUTH_ACCESS)[number];

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
  }
}

export const unauthenticatedError = () => new AppError('UNAUTHENTICATED', 401, 'User not authenticated');

/** The caller of a route that declared `signed-in` or `customer` access. */
export function authOf(request: FastifyRequest): AuthClaims {
  if (!request.auth) throw unauthenticatedError();
  return request.auth;
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
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
    const verified = new VerifiedTokenCache<AuthClaims>();

    // Documents the bearer token and the auth errors in OpenAPI for every protected route.
    app.addHook('onRoute', (route) => {
      const access = route.config?.auth ?? 'public';
      if (!AUTH_ACCESS.includes(access)) throw new Error(`Route ${route.url}: unknown auth access '${String(access)}'`);
      if (access === 'public' || !route.schema) return;
      route.schema.security ??= [{ idToken: [] }];
      const response = (route.schema.response ??= {}) as Record<string, unknown>;
      response[401] ??= errorBodySchema;
      response[403] ??= errorBodySchema;
    });

    // Callback style: a token this process verified before (most requests) costs no promise.
    app.addHook('onRequest', (request, _reply, done) => {
      const access = request.routeOptions.config.auth ?? 'public';
      if (access === 'public') return done();
      const token = bearerToken(request);
      const known = token ? verified.peek(token, app.clock.now().getTime()) : undefined;
      if (known && !known.staff && (access !== 'customer' || known.emailVerified)) {
        request.auth = known;
        return done();
      }
      authenticate(request, access, token).then(() => done(), done);
    });

    async function authenticate(request: FastifyRequest, access: AuthAccess, token: string | null): Promise<void> {
      const claims = token ? await verified.verify(token, app.clock.now().getTime(), (t) => app.idTokens.verify(t)) : null;
      if (!claims) throw unauthenticatedError();
      if (claims.staff) throw new AppError('STAFF_NOT_ALLOWED', 403, 'Not Authorized to login');
      if (access === 'customer' && !claims.emailVerified) {
        // A token issued before the user clicked the link still says unverified: the database decides.
        const user = await findUserById(app.db, claims.userId);
        if (!user) throw unauthenticatedError();
        if (!user.emailVerifiedAt) throw new AppError('EMAIL_NOT_VERIFIED', 403, 'Email not verified');
        request.auth = { ...claims, emailVerified: true };
        return;
      }
      request.auth = claims;
    }
  },
  { name: 'auth' },
);
