import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import {
  familyConsentKindSchema,
  familyConsentSchema,
  familyConsentsSchema,
  setFamilyConsentBodySchema,
} from '@kringle/contracts/family-consents';
import { authOf } from '../../plugins/auth';
import { byIp, rateLimit } from '../../plugins/rate-limit';
import { escapeHtml } from '../mail/mail-layout';
import { familyConsents, setFamilyConsent, unsubscribe } from './consents.service';

const tokenQuery = z.strictObject({
  token: z.string().min(1).max(100).meta({ description: 'The token of the unsubscribe link (the account it names)' }),
});

/** The two small pages a person sees from a link in a mail: data answers are not for reading. */
const PAGE_CSP = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'";
function page(reply: FastifyReply, brand: string, title: string, body: string) {
  const b = escapeHtml(brand);
  return reply
    .type('text/html; charset=utf-8')
    .header('content-security-policy', PAGE_CSP)
    .send(
      `<!doctype html><html lang="en-AU"><head><meta charset="utf-8"><meta name="viewport" ` +
        `content="width=device-width, initial-scale=1">` +
        `<meta name="robots" content="noindex"><title>${escapeHtml(title)} | ${b}</title></head>` +
        `<body style="font:16px/1.5 system-ui,sans-serif;max-width:32rem;margin:3rem auto;padding:0 ` +
        `1rem;color:#2b2421;background:#fbf7f0">` +
        `<h1 style="font-size:1.5rem">${escapeHtml(title)}</h1>${body}<p>${b}</p></body></html>`,
    );
}

/**
 * A family's choices apart from any booking, and the one-click unsubscribe (issue 51, decision 0097).
 * The unsubscribe answers mail apps (RFC 8058: POST, form-encoded `List-Unsubscribe=One-Click`),
 * and people who follow the link (GET shows a button that POSTs: a link scanner's GET changes nothing).
 */
export async function marketingRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = ['privacy'];
  // RFC 8058's body; its content is fixed and says nothing the link does not, so it is not kept.
  for (const type of ['application/x-www-form-urlencoded', 'multipart/form-data'])
    app.addContentTypeParser(type, { parseAs: 'string', bodyLimit: 4096 }, (_req, _body, done) => done(null, {}));
  const byAddress = rateLimit(app, { name: 'unsubscribe:ip', max: 60, window: '1 minute', key: byIp });
  const brand = app.config.BRAND_NAME;

  r.get(
    '/user/consents',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: 'The family’s choices apart from any booking (news by e-mail, showing its photos), with their words',
        response: { 200: familyConsentsSchema },
      },
    },
    async (req) => ({ items: await familyConsents(app, authOf(req).userId) }),
  );

  r.put(
    '/user/consents/:kind',
    {
      config: { auth: 'customer' },
      schema: {
        tags,
        summary: 'Turn one choice on (with the version of the words shown) or off, in one call',
        description:
          'Off by default. `{given:true, wordingVersion}` records the consent with the words’ version (and, for ' +
          'photo_showcase, ' +
          'an end 365 days on); `{given:false}` withdraws it at once. 409 CONSENT_WORDING_CHANGED when the version ' +
          'is not the one in force.',
        params: z.strictObject({ kind: familyConsentKindSchema }),
        body: setFamilyConsentBodySchema,
        response: { 200: familyConsentSchema, 400: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (req) => setFamilyConsent(app, authOf(req).userId, req.params.kind, req.body),
  );

  r.post(
    '/marketing/unsubscribe',
    {
      config: { auth: 'public', appCheck: false },
      preHandler: [byAddress],
      schema: {
        tags,
        summary: 'One-click unsubscribe (RFC 8058): news and offers by e-mail end at once',
        description:
          'The List-Unsubscribe address of every promotional mail. Public, no app check: a mail app POSTs ' +
          '`List-Unsubscribe=One-Click` (form-encoded). 200 whether or not news were on; 404 for a forged link.',
        querystring: tokenQuery,
        response: { 200: z.object({ unsubscribed: z.literal(true) }), 404: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (req, reply) => {
      await unsubscribe(app, req.query.token);
      if (req.headers.accept?.includes('text/html'))
        return page(reply, brand, 'You are unsubscribed', '<p>We will send you no more news or offers.</p>');
      return { unsubscribed: true as const };
    },
  );

  r.get(
    '/marketing/unsubscribe',
    {
      config: { auth: 'public', appCheck: false },
      preHandler: [byAddress],
      schema: {
        tags,
        summary: 'The unsubscribe link followed in a browser: a page with one button that POSTs',
        querystring: tokenQuery,
        response: { 200: z.string().meta({ description: 'text/html' }), 429: errorBodySchema },
      },
    },
    async (req, reply) =>
      page(
        reply,
        brand,
        'Stop news and offers?',
        `<form method="post" action="/api/v1/marketing/unsubscribe?token=${encodeURIComponent(req.query.token)}">` +
          '<input type="hidden" name="List-Unsubscribe" value="One-Click">' +
          '<button type="submit" style="font:inherit;padding:.75rem ' +
          '1.25rem;min-height:44px">Unsubscribe</button></form>' +
          '<p>Booking e-mails (confirmations, changes, reminders) still come: they carry no offers.</p>',
      ),
  );
}
