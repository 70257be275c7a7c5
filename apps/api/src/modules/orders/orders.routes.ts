import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import { authOf } from '../../plugins/auth';
import { orderListSchema, orderSchema } from '@kringle/contracts/orders';
import { getOrder, listOrders, paymentReceipt, refundReceipt } from './orders.service';

/** Orders and receipts of a booking (API.md "Bookings and orders"): customers only, own bookings only. */
export async function ordersRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { auth: 'customer' as const };
  const tags = ['orders'];
  const bookingParams = z.strictObject({ bookingId: z.uuid() });
  const orderParams = z.strictObject({ bookingId: z.uuid(), orderId: z.uuid() });
  const pdf = z.any().meta({ description: 'application/pdf' });

  r.get(
    '/orders/:bookingId/orders',
    {
      config,
      schema: {
        tags,
        summary: "A booking's orders",
        params: bookingParams,
        response: { 200: orderListSchema, 404: errorBodySchema },
      },
    },
    async (req) => ({ items: await listOrders(app, authOf(req).userId, req.params.bookingId) }),
  );
  r.get(
    '/orders/:bookingId/orders/:orderId',
    {
      config,
      schema: { tags, summary: 'One order', params: orderParams, response: { 200: orderSchema, 404: errorBodySchema } },
    },
    async (req) => getOrder(app, authOf(req).userId, req.params.bookingId, req.params.orderId),
  );
  r.get(
    '/orders/:bookingId/orders/:orderId/payment-receipt',
    {
      config,
      schema: {
        tags,
        summary: 'Tax invoice (PDF)',
        params: orderParams,
        response: { 200: pdf, 404: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (req, reply) => {
      const { filename, pdf: body } = await paymentReceipt(
        app,
        authOf(req).userId,
        req.params.bookingId,
        req.params.orderId,
      );
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(body);
    },
  );
  r.get(
    '/orders/:bookingId/orders/:orderId/refund-receipt',
    {
      config,
      schema: {
        tags,
        summary: 'Refund receipt (PDF)',
        params: orderParams,
        response: { 200: pdf, 404: errorBodySchema },
      },
    },
    async (req, reply) => {
      const { filename, pdf: body } = await refundReceipt(
        app,
        authOf(req).userId,
        req.params.bookingId,
        req.params.orderId,
      );
      return reply
        .type('application/pdf')
        .header('content-disposition', `attachment; filename="${filename}"`)
        .header('cache-control', 'private, no-store')
        .send(body);
    },
  );
}
