import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { notFound } from '../../lib/errors';
import { findCaughtMail, listCaughtMail } from './dev-mailbox.repository';
import { framedMailHtml, renderMailboxPage } from './dev-mailbox.view';
import { loopbackOnly } from './loopback-only';
import { devMailboxEnabled } from './mail-transport';

/** The mail's own HTML may not run scripts, load anything but images, or be framed elsewhere. */
const FRAMED_MAIL_CSP =
  "default-src 'none'; img-src data: https: http:; style-src 'unsafe-inline'; font-src data: https:; frame-ancestors " +
  "'self'";

/** `/dev/mailbox`: a small server-rendered mailbox over dev_mailbox (same availability as /api/v1/dev/outbox). */
export async function devMailboxRoutes(app: FastifyInstance) {
  if (!devMailboxEnabled(app.config)) return;
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/dev/mailbox',
    {
      config: { auth: 'public' },
      onRequest: loopbackOnly,
      schema: {
        hide: true,
        querystring: z.object({ to: z.string().trim().max(320).optional(), id: z.uuid().optional() }),
        response: { 200: z.string() },
      },
    },
    async (request, reply) => {
      const to = request.query.to || undefined;
      const mails = await listCaughtMail(app.db, { to, limit: 100 });
      const chosen = request.query.id ? await findCaughtMail(app.db, request.query.id) : (mails[0] ?? null);
      const html = renderMailboxPage({ brandName: app.config.BRAND_NAME, to, mails, selected: chosen });
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    },
  );
  r.get(
    '/dev/mailbox/:id/html',
    {
      config: { auth: 'public' },
      onRequest: loopbackOnly,
      schema: { hide: true, params: z.object({ id: z.uuid() }), response: { 200: z.string() } },
    },
    async (request, reply) => {
      const mail = await findCaughtMail(app.db, request.params.id);
      if (!mail) throw notFound('That message');
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .header('content-security-policy', FRAMED_MAIL_CSP)
        .send(framedMailHtml(mail.html));
    },
  );
}
