import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  mfaSignInRequestSchema,
  sessionResponseSchema,
  signInRequestSchema,
  signInResponseSchema,
} from '@kringle/contracts/accounts';
import { byIp, rateLimit } from '../../plugins/rate-limit';
import { MFA_LIMITS, SESSION_LIMITS } from './account-limits';
import { authOf } from '../../plugins/auth';
import { errors, sessionBody, signInLimits, tags } from './account-routes.shared';
import type { AccountsService } from './accounts.service';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './refresh-cookie';

/** Refresh and sign-out take no body; `{}` is accepted for clients that always send JSON. */
const emptyBody = z.strictObject({}).nullish();

/** API.md "Accounts and auth": sign-in, refresh rotation and sign-out. */
export function sessionsRoutes(app: FastifyInstance, accounts: AccountsService) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/auth/sign-in',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Sign in: an ID token in the body, the refresh token in an httpOnly cookie',
        description:
          'A staff account with a second factor gets `{mfaRequired: true, mfaToken}` instead (no ID token, no ' +
          'cookie): send the token and a code to POST /auth/mfa within 5 minutes. Customers always get the session.',
        body: signInRequestSchema,
        response: { 200: signInResponseSchema, ...errors(400, 401, 429) },
      },
      preHandler: signInLimits(app),
    },
    async (request, reply) => {
      const outcome = await accounts.signIn(request.body.email, request.body.password);
      if ('mfaRequired' in outcome) return { mfaRequired: true as const, mfaToken: outcome.mfaToken };
      setRefreshCookie(request, reply, outcome.refreshToken, outcome.refreshExpiresAt, app.clock.now());
      return sessionBody(outcome);
    },
  );

  r.post(
    '/auth/mfa',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary:
          "Sign-in's second step: the mfaToken and a TOTP code (or an unused recovery code) " + '→ the usual session',
        description:
          'A TOTP code works once; a recovery code works once. 401 INVALID_MFA_CODE for a wrong code (the mfaToken ' +
          'stays usable until it expires); 401 UNAUTHENTICATED for an unknown, used or expired mfaToken (sign in ' +
          'again). Limited per IP and per mfaToken.',
        body: mfaSignInRequestSchema,
        response: { 200: sessionResponseSchema, ...errors(400, 401, 429) },
      },
      preHandler: [
        rateLimit(app, { name: 'mfa:ip', max: MFA_LIMITS.perIp, window: MFA_LIMITS.window, key: byIp }),
        rateLimit(app, {
          name: 'mfa:token',
          max: MFA_LIMITS.perToken,
          window: MFA_LIMITS.window,
          key: (req) => (req.body as { mfaToken?: string }).mfaToken,
        }),
      ],
    },
    async (request, reply) => {
      const session = await accounts.signInSecondStep(request.body.mfaToken, request.body.code);
      setRefreshCookie(request, reply, session.refreshToken, session.refreshExpiresAt, app.clock.now());
      return sessionBody(session);
    },
  );

  r.post(
    '/auth/refresh',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary:
          'New ID token from the refresh cookie; the cookie rotates; its predecessor re-sent within ' +
          'REFRESH_REUSE_GRACE_SECONDS gets the current cookie, any other replay revokes the family',
        security: [{ cookieAuth: [] }],
        body: emptyBody,
        response: { 200: sessionResponseSchema, ...errors(400, 401, 429) },
      },
      // Before the handler: a refused request neither rotates nor clears the cookie (the web app
      // keeps the family signed in on a 429 and tries again with its next call).
      preHandler: [
        rateLimit(app, {
          name: 'refresh:ip',
          max: SESSION_LIMITS.refresh.perIp,
          window: SESSION_LIMITS.refresh.window,
          key: byIp,
        }),
      ],
    },
    async (request, reply) => {
      try {
        const session = await accounts.refresh(readRefreshCookie(request));
        setRefreshCookie(request, reply, session.refreshToken, session.refreshExpiresAt, app.clock.now());
        return sessionBody(session);
      } catch (err) {
        clearRefreshCookie(request, reply);
        throw err;
      }
    },
  );

  r.post(
    '/auth/sign-out',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: "Sign out: revokes the refresh cookie's family and clears the cookie",
        security: [{ cookieAuth: [] }],
        body: emptyBody,
        response: { 204: z.null().describe('Signed out'), ...errors(400) },
      },
    },
    async (request, reply) => {
      await accounts.signOut(readRefreshCookie(request));
      clearRefreshCookie(request, reply);
      return reply.code(204).send(null);
    },
  );

  r.post(
    '/auth/sign-out-everywhere',
    {
      config: { auth: 'signed-in' },
      schema: {
        tags,
        summary:
          "Sign out on every device: revokes all of the account's refresh families and clears this cookie; ID tokens " +
          'already issued are refused at once (401) and live streams end',
        body: emptyBody,
        response: { 204: z.null().describe('Signed out everywhere'), ...errors(400, 401) },
      },
    },
    async (request, reply) => {
      await accounts.signOutEverywhere(authOf(request).userId);
      clearRefreshCookie(request, reply);
      return reply.code(204).send(null);
    },
  );
}
