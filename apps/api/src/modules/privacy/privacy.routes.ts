import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import {
  deleteAccountBodySchema,
  deleteAccountResultSchema,
  exportFileName,
  privacyPolicySchema,
} from '@kringle/contracts/privacy';
import { authOf } from '../../plugins/auth';
import { rateLimit } from '../../plugins/rate-limit';
import { deleteAccount } from './account-deletion.service';
import { familyTimeZone, readExport } from './data-export.repository';
import { privacyPolicy } from './privacy-policy';

/** API.md "Privacy" (issue 38, decision 0058): the policy, a family's export and its deletion. */
export async function privacyRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['privacy'];
  const policy = privacyPolicy(app.config);

  r.get(
    '/common/privacy',
    {
      config: { auth: 'public' },
      schema: {
        tags,
        summary: 'The privacy policy in force, with the brand’s name and contact',
        response: { 200: privacyPolicySchema },
      },
    },
    async (_req, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return policy;
    },
  );

  r.get(
    '/user/export',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: 'Everything held about the family, as one JSON file (docs/privacy.md documents each field)',
        response: {
          200: z.any().meta({
            description:
              'application/json attachment: account, bookings, details, orders, refunds, credit, emails, sms, ' +
              'smsMessages, ' +
              'delayNotices, checkIns, waitlist, ' +
              'photos, consents, auditEntries',
          }),
          429: errorBodySchema,
        },
      },
      preHandler: [
        rateLimit(app, { name: 'export:user', max: 10, window: '1 minute', key: (request) => request.auth?.userId }),
      ],
    },
    async (req, reply) => {
      const now = app.clock.now();
      const body = {
        exportedAt: now.toISOString(),
        brand: app.config.BRAND_NAME,
        format: 'kringle-export/1',
        ...(await readExport(app.db, authOf(req).userId)),
      };
      return reply
        .type('application/json; charset=utf-8')
        .header('cache-control', 'no-store')
        .header(
          'content-disposition',
          `attachment; filename="${exportFileName(now, (await familyTimeZone(app.db, authOf(req).userId)) ?? 'UTC')}"`,
        )
        .send(JSON.stringify(body, null, 2));
    },
  );

  r.delete(
    '/user',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary:
          'Delete the account: password and e-mail to confirm; upcoming bookings answer 409 UPCOMING_BOOKINGS unless ' +
          'cancelUpcoming is true',
        description:
          'Upcoming bookings are cancelled by the policy and refunded (each with its e-mail); then every session is ' +
          'revoked, names, e-mail and phone are ' +
          "removed from every row, children's details, notes and photos deleted and waitlist places released. Tax " +
          'invoices keep their figures and the ' +
          'name for INVOICE_RETENTION_YEARS. 400 VALIDATION_FAILED on body.password or body.confirmEmail; 429 after ' +
          '5 attempts a minute.',
        body: deleteAccountBodySchema,
        response: { 202: deleteAccountResultSchema, 400: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema },
      },
      preHandler: [
        rateLimit(app, {
          name: 'delete-account:user',
          max: 5,
          window: '1 minute',
          key: (request) => request.auth?.userId,
        }),
      ],
    },
    async (req, reply) => reply.code(202).send(await deleteAccount(app, authOf(req).userId, req.body)),
  );
}
