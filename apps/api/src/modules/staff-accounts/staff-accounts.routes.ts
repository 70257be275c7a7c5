import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import {
  acceptInvitationSchema,
  createStaffAccountSchema,
  messageSchema,
  mfaConfirmResponseSchema,
  mfaConfirmSchema,
  mfaSetupResponseSchema,
  staffAccountListSchema,
  staffAccountParamsSchema,
  staffAccountSchema,
  staffMeSchema,
  updateStaffAccountSchema,
} from '@kringle/contracts/staff-accounts';
import { z } from 'zod';
import { authOf } from '../../plugins/auth';
import { staffActor } from '../audit-trail/audit-entries.repository';
import { byIp, rateLimit } from '../../plugins/rate-limit';
import { clearRefreshCookie } from '../accounts/refresh-cookie';
import { StaffAccountsService } from './staff-accounts.service';

/**
 * Staff accounts, invitations and the second factor (issue 34, decision 0050). Managers only,
 * but for the caller's own view (`/staff/me`) and enrolment, which every role may reach even
 * before enrolling (`staffBeforeMfa`): the way out of 403 MFA_REQUIRED.
 */
export async function staffAccountsRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = new StaffAccountsService(app.db, app.clock, {
    brandName: app.config.BRAND_NAME,
    publicUrl: app.config.PUBLIC_URL,
    forget: (id) => app.staffStates.forget(id),
    sessionsEnded: (ended) => app.sessionCutoffs.raise(ended.userId, ended.epoch, ended.endedAtMs),
  });
  const tags = ['staff accounts'];
  const managers = { auth: 'staff' as const };
  const anyRoleBeforeMfa = { auth: 'staff' as const, staffRoles: ['support', 'set'] as const, staffBeforeMfa: true };
  const errs = { 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

  r.get(
    '/staff/me',
    {
      config: anyRoleBeforeMfa,
      schema: {
        tags,
        summary: "The caller's role, locations and second-factor state (what the staff app shows)",
        response: { 200: staffMeSchema },
      },
    },
    async (req) => service.me(req.staffAccess!),
  );
  r.get(
    '/staff/accounts',
    {
      config: managers,
      schema: { tags, summary: 'Every staff account, by e-mail', response: { 200: staffAccountListSchema } },
    },
    async () => ({ items: await service.list() }),
  );
  r.post(
    '/staff/accounts',
    {
      config: managers,
      schema: {
        tags,
        summary:
          'Invite a staff member: the account, and an e-mail with a single-use link to /staff/invite?code= (7 days)',
        description: '409 EMAIL_IN_USE when any account (staff or family) has the e-mail.',
        body: createStaffAccountSchema,
        response: { 201: staffAccountSchema, ...errs },
      },
    },
    async (req, reply) => reply.code(201).send((await service.invite(req.body, staffActor(authOf(req)))).account),
  );
  r.patch(
    '/staff/accounts/:id',
    {
      config: managers,
      schema: {
        tags,
        summary:
          "Change a staff account's role, locations or active flag, or reset its second factor; deactivating or a " +
          'reset ends its sessions at once',
        description: 'A manager cannot demote, deactivate or reset their own account (400).',
        params: staffAccountParamsSchema,
        body: updateStaffAccountSchema,
        response: { 200: staffAccountSchema, ...errs },
      },
    },
    async (req) => service.update(authOf(req).userId, req.params.id, req.body),
  );
  r.post(
    '/staff/invitations/accept',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: "Accept an invitation: choose the account's password (the link then never works again)",
        description:
          '400 INVALID_ACTION_CODE for an unknown, used or expired code; 400 WEAK_PASSWORD (the link stays usable).',
        body: acceptInvitationSchema,
        response: { 200: messageSchema, 400: errorBodySchema, 429: errorBodySchema },
      },
      preHandler: [rateLimit(app, { name: 'staff-invite:ip', max: 30, window: '1 minute', key: byIp })],
    },
    async (req) => {
      await service.acceptInvitation(req.body.code, req.body.password);
      return { message: 'Your password is set. Sign in to the staff app.' };
    },
  );
  r.post(
    '/staff/mfa/setup',
    {
      config: anyRoleBeforeMfa,
      schema: {
        tags,
        summary: 'Start enrolling the second factor: a new TOTP secret and its otpauth URL (for the QR code)',
        description: '409 MFA_ALREADY_ENROLLED once enrolled. Calling it again before confirming replaces the secret.',
        body: z.strictObject({}).nullish(),
        response: { 200: mfaSetupResponseSchema, 409: errorBodySchema },
      },
    },
    async (req) => app.mfa.setup(authOf(req).userId),
  );
  r.post(
    '/staff/mfa/confirm',
    {
      config: anyRoleBeforeMfa,
      schema: {
        tags,
        summary: 'Finish enrolling with a first code from the app: answers 10 recovery codes, shown this once',
        description:
          '400 VALIDATION_FAILED for a wrong code; 409 MFA_ALREADY_ENROLLED. Enrolling ends every other session of ' +
          'the account that was signed into with the password alone (their refresh cookies and ID tokens are ' +
          'refused, 401, on every API instance); this session has proved a code and stays: its ID token is refused ' +
          "too (the account's session epoch rose), and its next `POST /auth/refresh` gives one that carries `amr: " +
          "['pwd', 'otp']`.",
        body: mfaConfirmSchema,
        response: { 200: mfaConfirmResponseSchema, 400: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (req) => {
      const { recoveryCodes, ended } = await app.mfa.confirm(authOf(req).userId, req.body.code, authOf(req).sessionId);
      app.staffStates.forget(authOf(req).userId);
      app.sessionCutoffs.raise(ended.userId, ended.epoch, ended.endedAtMs);
      return { recoveryCodes };
    },
  );
  r.post(
    '/staff/sign-out-everywhere',
    {
      config: anyRoleBeforeMfa,
      schema: {
        tags,
        summary:
          "Sign out on every device: revokes all of the caller's refresh families, refuses the staff ID tokens " +
          'already issued (401), and clears this cookie',
        description:
          "A staff member's own sign-out everywhere (decision 0062), beside the families' `POST " +
          '/auth/sign-out-everywhere`, which refuses staff tokens: the session epoch is raised (decision 0063), so ' +
          "every process refuses the member's older ID tokens at once and a lost staff device reads nothing more.",
        body: z.strictObject({}).nullish(),
        response: { 204: z.null().describe('Signed out everywhere') },
      },
    },
    async (req, reply) => {
      await service.signOutEverywhere(authOf(req).userId);
      clearRefreshCookie(req, reply);
      return reply.code(204).send(null);
    },
  );
}
