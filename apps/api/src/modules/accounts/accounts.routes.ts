import type { FastifyInstance } from 'fastify';
import type { SessionsEnded } from './session-cutoffs.repository';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  changeEmailRequestSchema,
  changePasswordRequestSchema,
  registerRequestSchema,
  sessionResponseSchema,
  updateProfileRequestSchema,
  userResponseSchema,
} from '@kringle/contracts/accounts';
import { authOf } from '../../plugins/auth';
import { rateLimit } from '../../plugins/rate-limit';
import { AccountActionsService } from './account-actions.service';
import { accountActionsRoutes } from './account-actions.routes';
import { emailChangeLimits, errors, registerLimits, sessionBody, tags } from './account-routes.shared';
import { AccountsService } from './accounts.service';
import { EmailChangeService } from './email-change.service';
import { prepareDummyHash } from './passwords';
import { setRefreshCookie } from './refresh-cookie';
import { sessionsRoutes } from './sessions.routes';

/**
 * API.md "Accounts and auth": registration and the profile here, sessions and the e-mail links in
 * their own files. Thin: validation here, rules in the services.
 */
export async function accountsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const sessionsEnded = (ended: SessionsEnded) => app.sessionCutoffs.raise(ended.userId, ended.epoch, ended.endedAtMs);
  const accounts = new AccountsService(
    app.db,
    app.clock,
    app.idTokens,
    app.log,
    app.config.REFRESH_REUSE_GRACE_SECONDS * 1000,
    app.mfa,
    sessionsEnded,
  );
  const actions = new AccountActionsService(app.db, app.clock, {
    brandName: app.config.BRAND_NAME,
    appOrigins: app.config.APP_ORIGINS,
    sessionsEnded,
    onBackgroundError: (err) => app.log.error({ err }, 'password reset request failed after it was answered'),
  });
  // The reset mail is written after the answer: shutdown waits for it. preClose, because the
  // root's onClose (which ends the pool) runs before this plugin's own onClose.
  const emailChange = new EmailChangeService(app.db, app.clock, {
    brandName: app.config.BRAND_NAME,
    appOrigins: app.config.APP_ORIGINS,
    log: app.log,
  });
  app.addHook('preClose', async () => actions.drain());
  prepareDummyHash();
  sessionsRoutes(app, accounts);
  accountActionsRoutes(app, actions);

  r.post(
    '/user',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Register a customer account (then sign in and ask for the verification e-mail)',
        body: registerRequestSchema,
        response: { 201: userResponseSchema, ...errors(400, 409, 429) },
      },
      preHandler: registerLimits(app),
    },
    async (request, reply) => reply.code(201).send({ user: await accounts.register(request.body) }),
  );

  r.get(
    '/user/me',
    {
      config: { auth: 'signed-in' },
      schema: { tags, summary: 'The signed-in user (unverified ok)', response: { 200: userResponseSchema } },
    },
    async (request) => ({ user: await accounts.getUser(authOf(request).userId) }),
  );

  r.patch(
    '/user/me',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: 'Update the profile; null clears phone or preferred location',
        body: updateProfileRequestSchema,
        response: { 200: userResponseSchema, ...errors(400) },
      },
    },
    async (request) => ({ user: await accounts.updateProfile(authOf(request).userId, request.body) }),
  );

  r.post(
    '/user/me/password',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: 'Change the password (the current one must match)',
        description:
          'Checks `currentPassword`, sets `newPassword` (same rules as registration), revokes every refresh token of ' +
          'the user, so other devices ' +
          'must sign in again, and starts a fresh session here: the body is a new ID token, the cookie a new refresh ' +
          'token. ID tokens issued ' +
          'before are refused at once, on every API process (401). 400 `WRONG_PASSWORD` (details on ' +
          'body.currentPassword), 400 `WEAK_PASSWORD`, ' +
          '429 after 10 attempts a minute per user.',
        body: changePasswordRequestSchema,
        response: { 200: sessionResponseSchema, ...errors(400, 429) },
      },
      // Per user: a token left signed in on a shared device must not become a password-guessing oracle.
      preHandler: [
        rateLimit(app, {
          name: 'change-password:user',
          max: 10,
          window: '1 minute',
          key: (request) => request.auth?.userId,
        }),
      ],
    },
    async (request, reply) => {
      const session = await accounts.changePassword(
        authOf(request).userId,
        request.body.currentPassword,
        request.body.newPassword,
      );
      setRefreshCookie(request, reply, session.refreshToken, session.refreshExpiresAt, app.clock.now());
      return sessionBody(session);
    },
  );

  r.put(
    '/user/me/email',
    {
      config: { auth: 'signed-in' },
      schema: {
        tags,
        summary:
          'Correct the e-mail address of an account not yet verified (unverified ok); mails a new verification link',
        description:
          'Beyond API.md (decision 0068). Body `{email, password, redirectUrl}`: the new address (the registration ' +
          "rules), the account's " +
          'password again, and an app origin for the link, as `POST /user/auth/email-verification`. 200 `{user}` ' +
          'with the new address, still ' +
          "unverified: every unused link of the account is void (the old address's verification links, reset links) " +
          'and one verification ' +
          'e-mail goes to the new address. The address the account already has answers 200 with nothing sent (a ' +
          'request sent twice sends ' +
          'one e-mail). 400 `WRONG_PASSWORD` (details on body.password), 400 `VALIDATION_FAILED`, 400 ' +
          '`REDIRECT_NOT_ALLOWED`; 409 ' +
          '`EMAIL_IN_USE` for an address another account has, as registration answers; 409 `ALREADY_VERIFIED` once ' +
          'the account is ' +
          "verified; 403 `STAFF_NOT_ALLOWED` for staff. 429: it counts against the verification e-mail's daily " +
          'limits per account and ' +
          'per IP address (shared with re-sends), and 5 an hour per new address.',
        body: changeEmailRequestSchema,
        response: { 200: userResponseSchema, ...errors(400, 409, 429) },
      },
      preHandler: emailChangeLimits(app),
    },
    async (request) => ({ user: await emailChange.changeEmail(authOf(request).userId, request.body) }),
  );
}
