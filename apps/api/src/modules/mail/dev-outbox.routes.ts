import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import { listCaughtMail } from './dev-mailbox.repository';
import { loopbackOnly } from './loopback-only';
import { devMailboxEnabled } from './mail-transport';

const caughtMailSchema = z
  .object({
    id: z.uuid(),
    to: z.string(),
    subject: z.string(),
    text: z.string(),
    html: z.string(),
    headers: z
      .record(z.string(), z.string())
      .meta({ description: 'The list headers received (list-unsubscribe, list-unsubscribe-post), lower-case names' }),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: 'DevMail' });

/**
 * `GET /dev/outbox?to=`: mail the embedded SMTP catcher received, newest first (API.md
 * "Development mailbox"). Not registered at all when mail goes to a real SMTP server or in
 * production, so it answers the ordinary JSON 404 there.
 */
export async function devOutboxRoutes(app: FastifyInstance) {
  if (!devMailboxEnabled(app.config)) return;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/dev/outbox',
    {
      config: { auth: 'public' },
      onRequest: loopbackOnly,
      schema: {
        tags: ['development'],
        summary: 'Mail received by the embedded SMTP catcher (embedded default only)',
        querystring: z.strictObject({
          to: z.string().trim().min(3).max(320).optional(),
          limit: z.coerce.number().int().min(1).max(200).default(50),
        }),
        response: { 200: z.object({ items: z.array(caughtMailSchema) }), 400: errorBodySchema },
      },
    },
    async (request) => {
      const rows = await listCaughtMail(app.db, request.query);
      return {
        items: rows.map((r) => ({
          id: r.id,
          to: r.toAddress,
          subject: r.subject,
          text: r.text,
          html: r.html,
          headers: r.headers,
          createdAt: r.createdAt.toISOString(),
        })),
      };
    },
  );
}
