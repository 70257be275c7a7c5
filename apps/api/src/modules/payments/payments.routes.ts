import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type Stripe from 'stripe';
import { z } from 'zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import { errors } from '../../lib/errors';
import { handleStripeEvent } from './payments.service';
import { webhookLag } from '../operations/metrics';

/**
 * POST /webhooks/stripe: public, no app check, raw body (the signature covers the exact bytes).
 * Answers 400 to a bad signature and 200 once the event is applied; an error makes Stripe retry.
 */
export async function stripeWebhookRoutes(app: FastifyInstance) {
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.withTypeProvider<ZodTypeProvider>().post(
    '/webhooks/stripe',
    {
      config: { auth: 'public', appCheck: false },
      schema: {
        tags: ['payments'],
        summary: 'Stripe webhook: payment and refund events, signed by Stripe',
        description:
          'Called by Stripe, not by the app: the body is the event as Stripe sent it (application/json), verified ' +
          'byte for byte ' +
          'against the Stripe-Signature header and STRIPE_WEBHOOK_SECRET. No token and no app check.',
        // Loose: the other headers stay on the request as they came.
        headers: z.looseObject({
          'stripe-signature': z
            .string()
            .min(1)
            .meta({ description: "Stripe's signature of the raw body: t=<timestamp>,v1=<HMAC-SHA256>" }),
        }),
        response: {
          200: z.object({ received: z.literal(true) }).describe('The event was applied (or had been already)'),
          400: errorBodySchema.describe('Missing or invalid signature, or a body that is not the signed one'),
          503: errorBodySchema.describe('Payments are not configured'),
        },
      },
    },
    async (req, reply) => {
      const secret = app.config.STRIPE_WEBHOOK_SECRET;
      if (!app.stripe || !secret) throw errors.serviceUnavailable('Payments are not configured.');
      const signature = req.headers['stripe-signature'];
      let event: Stripe.Event;
      try {
        if (typeof signature !== 'string' || !Buffer.isBuffer(req.body)) throw new Error('missing');
        event = app.stripe.webhooks.constructEvent(req.body, signature, secret);
      } catch {
        throw errors.badRequest('Invalid webhook signature.');
      }
      // How far behind Stripe's deliveries run (kringle_webhook_lag_seconds; event.created is in seconds).
      webhookLag.set(Math.max(0, app.clock.now().getTime() / 1000 - event.created));
      await handleStripeEvent(app, event);
      return reply.code(200).send({ received: true as const });
    },
  );
}
