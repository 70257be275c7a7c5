import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  actionCheckResponseSchema,
  actionCodeRequestSchema,
  confirmPasswordResetRequestSchema,
  emailVerificationRequestSchema,
  messageResponseSchema,
  sendPasswordResetRequestSchema,
} from '@kringle/contracts/accounts';
import { authOf } from '../../plugins/auth';
import { byIp, rateLimit } from '../../plugins/rate-limit';
import type { AccountActionsService } from './account-actions.service';
import { accountLimits, errors, tags, verifyMailLimits } from './account-routes.shared';

/** API.md "Accounts and auth": the e-mail links (verification, password reset), from request to use. */
export function accountActionsRoutes(app: FastifyInstance, actions: AccountActionsService) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Not in API.md's list: anti-automation on the e-mail links (ASVS 2.2.1). Codes are 256-bit,
  // so this is not what keeps them safe; it keeps scripted guessing off the database.
  const actionLimit = rateLimit(app, { name: 'auth-action:ip', max: 30, window: '1 minute', key: byIp });

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
      preHandler: verifyMailLimits(app),
    },
    async (request) => ({
      message: await actions.sendVerificationEmail(authOf(request).userId, request.body.redirectUrl),
    }),
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
      preHandler: accountLimits(app, 'reset-password'),
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
        summary: "Verify the e-mail address with a link's code (single use, 24 h)",
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
        summary: "Set a new password with a reset link's code (single use, 1 h); signs out every session",
        body: confirmPasswordResetRequestSchema,
        response: { 200: messageResponseSchema, ...errors(400, 429) },
      },
      preHandler: [actionLimit],
    },
    async (request) => ({ message: await actions.resetPassword(request.body.oobCode, request.body.newPassword) }),
  );
}
