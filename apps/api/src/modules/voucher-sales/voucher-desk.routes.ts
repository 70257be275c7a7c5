import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import {
  staffVoucherListSchema,
  staffVoucherQuerySchema,
  staffVoucherSchema,
  voucherCancelBodySchema,
} from '@kringle/contracts/voucher-desk';
import { authOf } from '../../plugins/auth';
import { cancelVoucher, findVouchers } from './voucher-desk.service';

/** Support's gift vouchers (API.md "Gift vouchers, promo codes, credit, donations", decision 0112). */
export async function voucherDeskRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const support = { auth: 'staff' as const, staffRoles: ['support'] as const };
  const tags = ['staff'];
  r.get(
    '/staff/vouchers',
    {
      config: support,
      schema: {
        tags,
        summary: 'Find gift vouchers by code, or by part of the buyer or recipient, with their history',
        querystring: staffVoucherQuerySchema,
        response: { 200: staffVoucherListSchema, 400: errorBodySchema, 403: errorBodySchema },
      },
    },
    async (req) => ({ items: await findVouchers(app, req.query.q) }),
  );
  r.post(
    '/staff/vouchers/:id/cancel',
    {
      config: support,
      schema: {
        tags,
        summary: "Cancel a gift voucher: its unspent balance goes back to the buyer's card (once, however often sent)",
        params: z.strictObject({ id: z.uuid() }),
        body: voucherCancelBodySchema,
        response: {
          200: staffVoucherSchema,
          400: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (req) => cancelVoucher(app, authOf(req), req.params.id, req.body.reason),
  );
}
