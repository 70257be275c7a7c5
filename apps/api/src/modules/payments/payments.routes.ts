import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { AppError } from '../../lib/app-error';
import { handleStripeEvent } from './payments.service';

/**
 * POST /webhooks/stripe: public, no app check, raw body (the signature covers the exact bytes).
 * Answers 400 to a bad signature and 200 once the event is applied; an error makes Stripe retry.
 */
export async function stripeWebhookRoutes(app: FastifyInstance) {
  app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  app.post('/webhooks/stripe', { config: { auth: 'public', appCheck: false }, schema: { hide: true } }, async (req, reply) => {
    const secret = app.config.STRIPE_WEBHOOK_SECRET;
    if (!app.stripe || !secret) throw new AppError('SERVICE_UNAVAILABLE', 503, 'Payments are not configured.');
    const signature = req.headers['stripe-signature'];
    let event: Stripe.Event;
    try {
      if (typeof signature !== 'string' || !Buffer.isBuffer(req.body)) throw new Error('missing');
      event = app.stripe.webhooks.constructEvent(req.body, signature, secret);
    } catch {
      throw new AppError('BAD_REQUEST', 400, 'Invalid webhook signature.');
    }
    await handleStripeEvent(app, event);
    return reply.code(200).send({ received: true });
  });
}
