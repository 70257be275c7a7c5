import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import twilio from 'twilio';
import { z } from 'zod';
import { acceptFormBodies } from './form-bodies';
import { caughtSmsSchema } from '@kringle/contracts/wallet';
import { errorBodySchema } from '@kringle/contracts/errors';
import { australianMobile, displayMobile } from '@kringle/contracts/phone';
import { isLoopbackHost, loopbackOnly } from '../mail/loopback-only';
import { notFound } from '../../lib/errors';
import { webhookAuthToken } from './sms-provider';
import { SMS_WEBHOOK_PATH } from './sms-webhook.routes';
import { listCaughtSms } from './sms.repository';

const catcherOn = (app: FastifyInstance) => app.config.NODE_ENV !== 'production' && !app.config.SMS_PROVIDER;
const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/** `GET /api/v1/dev/sms?to=`: what the local SMS catcher received, newest first (loopback only, as the mailbox). */
export async function devSmsApiRoutes(app: FastifyInstance) {
  if (!catcherOn(app)) return;
  app.withTypeProvider<ZodTypeProvider>().get(
    '/dev/sms',
    {
      config: { auth: 'public' },
      onRequest: loopbackOnly,
      schema: {
        tags: ['development'],
        summary: 'SMS received by the local catcher (embedded default only)',
        querystring: z.strictObject({
          to: z.string().trim().max(24).optional(),
          limit: z.coerce.number().int().min(1).max(200).default(50),
        }),
        response: { 200: z.object({ items: z.array(caughtSmsSchema) }), 400: errorBodySchema },
      },
    },
    async (req) => {
      const to = req.query.to ? (australianMobile(req.query.to) ?? req.query.to) : undefined;
      return { items: await listCaughtSms(app.db, to, req.query.limit) };
    },
  );
}

/**
 * `/dev/sms`: a small page over the catcher, with a reply box per number: the reply is signed
 * as Twilio signs and posted to the real webhook, so STOP and START go the production way.
 */
export async function devSmsPageRoutes(app: FastifyInstance) {
  if (!catcherOn(app)) return;
  acceptFormBodies(app);
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/dev/sms',
    {
      config: { auth: 'public' },
      onRequest: loopbackOnly,
      schema: {
        hide: true,
        querystring: z.object({ to: z.string().trim().max(24).optional() }),
        response: { 200: z.string() },
      },
    },
    async (req, reply) => {
      const to = req.query.to ? (australianMobile(req.query.to) ?? req.query.to) : undefined;
      const items = await listCaughtSms(app.db, to, 100);
      const rows = items
        .map(
          (m) => `<li><p class="meta">To ${escape(displayMobile(m.to))} · <time>${escape(m.at)}</time></p>
<p class="body">${escape(m.body)}</p>
<form method="post" action="/dev/sms/reply"><input type="hidden" name="from" value="${escape(m.to)}">
<label>Reply from ${escape(displayMobile(m.to))} <input name="body" value="STOP" maxlength="160"></label>
<button type="submit">Send reply</button></form></li>`,
        )
        .join('\n');
      const html = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(app.config.BRAND_NAME)} SMS catcher</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0 auto;max-width:40rem;padding:1rem;color:#1a1a1a}
ul{list-style:none;padding:0}li{border:1px solid #ccc;border-radius:8px;padding:.75rem;margin:.75rem 0}
.meta{color:#555;margin:0;font-size:.875rem}.body{margin:.25rem 0 .5rem;white-space:pre-wrap}
input{font:inherit;padding:.25rem;margin:0 .5rem}button{font:inherit;padding:.25rem .75rem}</style></head>
<body><main><h1>SMS catcher</h1><p>Text messages the API sent on this machine (nothing leaves it).</p>
<form method="get"><label>Number <input name="to" value="${escape(req.query.to ?? '')}"></label>
<button>Filter</button></form>
${items.length ? `<ul>${rows}</ul>` : '<p>No messages yet.</p>'}</main></body></html>`;
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
    },
  );
  r.post(
    '/dev/sms/reply',
    {
      config: { auth: 'public' },
      onRequest: loopbackOnly,
      schema: { hide: true, body: z.object({ from: z.string().max(24), body: z.string().max(160) }) },
    },
    async (req, reply) => {
      // Another site's form may not post here (the Host check alone lets a cross-site form through).
      const origin = req.headers.origin;
      if (origin && origin !== 'null' && !isLoopbackHost(new URL(origin).host)) throw notFound('That page');
      const params = { From: req.body.from, To: 'Kringle', Body: req.body.body, MessageSid: 'SMdev' };
      const url = `${app.config.PUBLIC_URL}${SMS_WEBHOOK_PATH}`;
      const signature = twilio.getExpectedTwilioSignature(
        webhookAuthToken(app.config, app.secrets.jwtPrivateKeyPem)!,
        url,
        params,
      );
      await app.inject({
        method: 'POST',
        url: SMS_WEBHOOK_PATH,
        headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': signature },
        payload: new URLSearchParams(params).toString(),
      });
      return reply.redirect(`/dev/sms?to=${encodeURIComponent(req.body.from)}`, 303);
    },
  );
}
