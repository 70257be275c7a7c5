import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  cartSchema,
  checkoutBodySchema,
  checkoutResultSchema,
  continuePaymentResultSchema,
  createCartBodySchema,
  stripeClientConfigSchema,
} from '@kringle/contracts/cart';
import { errorBodySchema } from '@kringle/contracts/errors';
import { reservationParamsSchema } from '@kringle/contracts/reservations';
import { errors as appErrors } from '../../lib/errors';
import { authOf } from '../../plugins/auth';
import { createCart } from './cart.service';
import { checkoutOrder, continuePayment } from './checkout.service';

/** Cart and checkout (API.md "Reservations, cart, checkout"): customers only. */
export async function checkoutRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { auth: 'customer' as const };
  const errors = { 400: errorBodySchema, 404: errorBodySchema, 409: errorBodySchema };

  r.post(
    '/cart',
    {
      config,
      schema: {
        tags: ['checkout'],
        summary: 'Price a selection for a live hold',
        body: createCartBodySchema,
        response: { 201: cartSchema, ...errors },
      },
    },
    async (req, reply) => reply.code(201).send(await createCart(app, authOf(req).userId, req.body, req.ip)),
  );

  r.post(
    '/bookings/reservation/:id/checkoutOrder',
    {
      config,
      schema: {
        tags: ['checkout'],
        summary: 'Create the booking and order and the PaymentIntent (idempotent per cart)',
        description:
          'With `business` (a booking for a business or school) the tax invoice names the buyer and its ABN, checked ' +
          'by ' +
          'the ABR checksum (400 VALIDATION_FAILED on body.business.abn). A retry with the same cart answers the ' +
          'first checkout.',
        params: reservationParamsSchema,
        body: checkoutBodySchema,
        response: { 201: checkoutResultSchema, ...errors, 503: errorBodySchema },
      },
    },
    async (req, reply) =>
      reply
        .code(201)
        .send(await checkoutOrder(app, authOf(req).userId, req.params.id, req.body.cartId, req.body.business, req.ip)),
  );

  r.get(
    '/common/stripe-client-secret',
    {
      config,
      schema: {
        tags: ['checkout'],
        summary: 'The publishable key (despite the name)',
        response: { 200: stripeClientConfigSchema, 503: errorBodySchema },
      },
    },
    async () => {
      const key = app.config.STRIPE_PUBLISHABLE_KEY;
      if (!key) throw appErrors.cardPaymentsUnavailable();
      const sandboxUrl = app.config.STRIPE_API_URL;
      return {
        provider: 'stripe' as const,
        publishableKey: key,
        sandbox: Boolean(sandboxUrl),
        ...(sandboxUrl ? { sandboxUrl } : {}),
      };
    },
  );

  r.post(
    '/bookings/:id/continue-payment',
    {
      config,
      schema: {
        tags: ['checkout'],
        summary: 'Pay again for an unpaid booking while its hold lives',
        params: z.strictObject({ id: z.uuid() }),
        response: { 200: continuePaymentResultSchema, ...errors, 503: errorBodySchema },
      },
    },
    async (req) => continuePayment(app, authOf(req).userId, req.params.id),
  );
}
