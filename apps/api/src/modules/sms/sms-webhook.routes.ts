import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import twilio from 'twilio';
import { z } from 'zod';
import { acceptFormBodies } from './form-bodies';
import { australianMobile } from '@kringle/contracts/phone';
import { errorBodySchema } from '@kringle/contracts/errors';
import { errors } from '../../lib/errors';
import { webhookAuthToken } from './sms-provider';
import { setStopped } from './sms.repository';

/** Carriers' and Twilio's own opt-out and opt-in words (Twilio's Advanced Opt-Out defaults). */
const STOP_WORDS = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE']);
const START_WORDS = new Set(['START', 'UNSTOP', 'YES', 'OPTIN']);

export const SMS_WEBHOOK_PATH = '/api/v1/webhooks/sms';

/**
 * POST /webhooks/sms: the provider's inbound messages (Twilio's form-encoded webhook). The
 * X-Twilio-Signature is checked with the SDK's own validateRequest over PUBLIC_URL + the path and
 * the form fields; a bad or missing one is 400 and changes nothing. STOP turns the number's SMS
 * off, START back on; anything else is acknowledged and ignored. Answers empty TwiML.
 */
export async function smsWebhookRoutes(app: FastifyInstance) {
  const authToken = webhookAuthToken(app.config, app.secrets.jwtPrivateKeyPem);
  if (!authToken) return;
  acceptFormBodies(app);
  app.withTypeProvider<ZodTypeProvider>().post(
    '/webhooks/sms',
    {
      config: { auth: 'public' },
      schema: {
        tags: ['webhooks'],
        summary: 'Inbound SMS from the provider (Twilio): STOP turns the number off, START on',
        headers: z.object({ 'x-twilio-signature': z.string().max(200).optional() }),
        body: z.record(z.string(), z.string()),
        response: { 200: z.string().meta({ description: 'text/xml: empty TwiML' }), 400: errorBodySchema },
      },
    },
    async (req, reply) => {
      const signature = req.headers['x-twilio-signature'];
      const url = `${app.config.PUBLIC_URL}${SMS_WEBHOOK_PATH}`;
      if (!signature || !twilio.validateRequest(authToken, signature, url, req.body))
        throw errors.badRequest('Invalid webhook signature.');
      const from = australianMobile(req.body.From ?? '') ?? req.body.From;
      const word = (req.body.Body ?? '')
        .trim()
        .toUpperCase()
        .replace(/[^A-Z]/g, '');
      if (from && STOP_WORDS.has(word)) await setStopped(app.db, from, true, app.clock.now());
      else if (from && START_WORDS.has(word)) await setStopped(app.db, from, false, app.clock.now());
      return reply.type('text/xml').send('<?xml version="1.0" encoding="UTF-8"?><Response/>');
    },
  );
}
