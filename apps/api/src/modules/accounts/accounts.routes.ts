import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  actionCheckResponseSchema,
  actionCodeRequestSchema,
  changePasswordRequestSchema,
  confirmPasswordResetRequestSchema,
  emailVerificationRequestSchema,
  messageResponseSchema,
  registerRequestSchema,
  sendPasswordResetRequestSchema,
  sessionResponseSchema,
  signInRequestSchema,
  updateProfileRequestSchema,
  userResponseSchema,
} from '@kringle/contracts/accounts';
import { errorBodySchema } from '@kringle/contracts/errors';
import { authOf } from '../../plugins/auth';
import { byBodyEmail, byIp, byIpAndBodyEmail, rateLimit } from '../../plugins/rate-limit';
import { ACCOUNT_LIMITS, REGISTER_PRICING, SESSION_LIMITS, SIGN_IN_PRICING, VERIFY_MAIL_LIMITS } from './account-limits';
import { registerProof, signInProof } from './proof-pricing';
import { AccountActionsService } from './account-actions.service';
import { AccountsService, type Session } from './accounts.service';
import { prepareDummyHash } from './passwords';
import { clearRefreshCookie, readRefreshCookie, setRefreshCookie } from './refresh-cookie';

const errors = (...statuses: (400 | 401 | 409 | 429)[]) => Object.fromEntries(statuses.map((s) => [s, errorBodySchema]));
/** Refresh and sign-out take no body; `{}` is accepted for clients that always send JSON. */
const emptyBody = z.strictObject({}).nullish();
const tags = ['accounts'];

/** API.md "Accounts and auth". Thin: validation here, rules in the services. */
export async function accountsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const accounts = new AccountsService(app.db, app.clock, app.idTokens, app.log, app.config.REFRESH_REUSE_GRACE_SECONDS * 1000);
  const actions = new AccountActionsService(app.db, app.clock, {
    brandName: app.config.BRAND_NAME,
    appOrigins: app.config.APP_ORIGINS,
    onBackgroundError: (err) => app.log.error({ err }, 'password reset request failed after it was answered'),
  });
  // The reset mail is written after the answer: shutdown waits for it. preClose, because the
  // root's onClose (which ends the pool) runs before this plugin's own onClose.
  app.addHook('preClose', async () => actions.drain());
  prepareDummyHash();

  // API.md limits, per IP and per e-mail (counters shared by every API process). Per IP they are
  // sized for many families behind one shared address, per e-mail they stay strict (decision
  // "per-ip-limits-for-shared-addresses").
  const limits = (name: keyof typeof ACCOUNT_LIMITS) => {
    const { perIp, perEmail, window } = ACCOUNT_LIMITS[name];
    return [
      rateLimit(app, { name: `${name}:ip`, max: perIp, window, key: byIp }),
      rateLimit(app, { name: `${name}:email`, max: perEmail, window, key: byBodyEmail }),
    ];
  };
  // Sign-in: strict per e-mail and address, a ceiling per e-mail alone, and proofs priced (issue 36, decision 0048).
  const { perIp: signInPerIp, perEmail: signInPerEmailAndIp, window: signInWindow } = ACCOUNT_LIMITS['sign-in'];
  const signInLimits = [
    rateLimit(app, { name: 'sign-in:ip', max: signInPerIp, window: signInWindow, key: byIp }),
    rateLimit(app, { name: 'sign-in:email-ip', max: signInPerEmailAndIp, window: signInWindow, key: byIpAndBodyEmail }),
    rateLimit(app, { name: 'sign-in:email', max: SIGN_IN_PRICING.ceiling.perEmail, window: SIGN_IN_PRICING.ceiling.window, key: byBodyEmail }),
    signInProof(app),
  ];
  const registerLimits = [
    ...limits('register'),
    rateLimit(app, { name: 'register:ip-burst', max: REGISTER_PRICING.burst.perIp, window: REGISTER_PRICING.burst.window, key: byIp }),
    registerProof(app),
  ];
  const verifyMailLimits = [
    rateLimit(app, { name: 'verify-mail:user-day', max: VERIFY_MAIL_LIMITS.perUser, window: VERIFY_MAIL_LIMITS.window, key: (request) => request.auth?.userId }),
    rateLimit(app, { name: 'verify-mail:ip-day', max: VERIFY_MAIL_LIMITS.perIp, window: VERIFY_MAIL_LIMITS.window, key: byIp }),
  ];
  // Not in API.md's list: anti-automation on the e-mail links (ASVS 2.2.1). Codes are 256-bit,
  // so this is not what keeps them safe; it keeps scripted guessing off the database.
  const actionLimit = rateLimit(app, { name: 'auth-action:ip', max: 30, window: '1 minute', key: byIp });
  const sessionBody = (session: Session) => ({ idToken: session.idToken, expiresAt: session.expiresAt, user: session.user });

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
      preHandler: registerLimits,
    },
    async (request, reply) => reply.code(201).send({ user: await accounts.register(request.body) }),
  );

  r.post(
    '/auth/sign-in',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Sign in: an ID token in the body, the refresh token in an httpOnly cookie',
        body: signInRequestSchema,
        response: { 200: sessionResponseSchema, ...errors(400, 401, 429) },
      },
      preHandler: signInLimits,
    },
    async (request, reply) => {
      const session = await accounts.signIn(request.body.email, request.body.password);
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
        summary: 'New ID token from the refresh cookie; the cookie rotates; its predecessor re-sent within REFRESH_REUSE_GRACE_SECONDS gets the current cookie, any other replay revokes the family',
        security: [{ cookieAuth: [] }],
        body: emptyBody,
        response: { 200: sessionResponseSchema, ...errors(400, 401, 429) },
      },
      // Before the handler: a refused request neither rotates nor clears the cookie (the web app
      // keeps the family signed in on a 429 and tries again with its next call).
      preHandler: [rateLimit(app, { name: 'refresh:ip', max: SESSION_LIMITS.refresh.perIp, window: SESSION_LIMITS.refresh.window, key: byIp })],
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
        summary: 'Sign out: revokes the refresh cookie\'s family and clears the cookie',
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
        summary: 'Sign out on every device: revokes all of the account\'s refresh families and clears this cookie; ID tokens already issued last until they expire (at most 15 minutes), live streams end at once',
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
          'Checks `currentPassword`, sets `newPassword` (same rules as registration), revokes every refresh token of the user, so other devices ' +
          'must sign in again, and starts a fresh session here: the body is a new ID token, the cookie a new refresh token. ID tokens already ' +
          'issued stay valid until they expire (15 min). 400 `WRONG_PASSWORD` (details on body.currentPassword), 400 `WEAK_PASSWORD`, ' +
          '429 after 10 attempts a minute per user.',
        body: changePasswordRequestSchema,
        response: { 200: sessionResponseSchema, ...errors(400, 429) },
      },
      // Per user: a token left signed in on a shared device must not become a password-guessing oracle.
      preHandler: [rateLimit(app, { name: 'change-password:user', max: 10, window: '1 minute', key: (request) => request.auth?.userId })],
    },
    async (request, reply) => {
      const session = await accounts.changePassword(authOf(request).userId, request.body.currentPassword, request.body.newPassword);
      setRefreshCookie(request, reply, session.refreshToken, session.refreshExpiresAt, app.clock.now());
      return sessionBody(session);
    },
  );

  r.post(
    '/user/auth/email-verification',
    {
      config: { auth: 'signed-in' },
      schema: {
        tags,
        summary: 'E-mail a verification link built on redirectUrl (an app origin); at most once a minute',
        body: emailVerificationRequestSchema,
        response: { 200: messageResponseSchema, ...errors(400, 409, 429) },
      },
      preHandler: verifyMailLimits,
    },
    async (request) => ({ message: await actions.sendVerificationEmail(authOf(request).userId, request.body.redirectUrl) }),
  );

  r.post(
    '/user/auth/reset-password',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'E-mail a password reset link; the same answer whether or not the account exists',
        body: sendPasswordResetRequestSchema,
        response: { 200: messageResponseSchema, ...errors(400, 429) },
      },
      preHandler: limits('reset-password'),
    },
    async (request) => ({ message: await actions.sendPasswordReset(request.body.email, request.body.redirectUrl) }),
  );

  r.post(
    '/auth/action/check',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'What an e-mail link is for, with the masked e-mail',
        body: actionCodeRequestSchema,
        response: { 200: actionCheckResponseSchema, ...errors(400, 429) },
      },
      preHandler: [actionLimit],
    },
    async (request) => actions.check(request.body.oobCode),
  );

  r.post(
    '/auth/action/verify-email',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Verify the e-mail address with a link\'s code (single use, 24 h)',
        body: actionCodeRequestSchema,
        response: { 200: messageResponseSchema, ...errors(400, 429) },
      },
      preHandler: [actionLimit],
    },
    async (request) => ({ message: await actions.verifyEmail(request.body.oobCode) }),
  );

  r.post(
    '/auth/action/reset-password',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'Set a new password with a reset link\'s code (single use, 1 h); signs out every session',
        body: confirmPasswordResetRequestSchema,
        response: { 200: messageResponseSchema, ...errors(400, 429) },
      },
      preHandler: [actionLimit],
    },
    async (request) => ({ message: await actions.resetPassword(request.body.oobCode, request.body.newPassword) }),
  );
}
