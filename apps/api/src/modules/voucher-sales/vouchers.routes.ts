import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import {
  buyVoucherBodySchema,
  voucherCodeInputSchema,
  voucherListSchema,
  voucherPurchaseSchema,
  voucherSchema,
} from '@kringle/contracts/vouchers';
import { authOf } from '../../plugins/auth';
import {
  buyVoucher,
  claimVoucher,
  listVouchers,
  lookUpVoucher,
  voucherCertificate,
  voucherReceipt,
} from './vouchers.service';

/** Gift vouchers (API.md "Gift vouchers, promo codes, credit, donations", decision 0112): families only. */
export async function voucherRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const config = { auth: 'customer' as const };
  const tags = ['vouchers'];
  const codeParams = z.strictObject({ code: voucherCodeInputSchema });
  const idParams = z.strictObject({ id: z.uuid() });
  const pdf = z.any().meta({ description: 'application/pdf' });
  const wrongCodes = 'a wrong code (unknown, or in another account) is a 404; 10 an hour per account or address → 429';

  r.post(
    '/vouchers',
    {
      config,
      schema: {
        tags,
        summary: 'Buy a gift voucher by value; pay its client_secret by card, as a booking',
        body: buyVoucherBodySchema,
        response: { 201: voucherPurchaseSchema, 400: errorBodySchema, 503: errorBodySchema },
      },
    },
    async (req, reply) => reply.code(201).send(await buyVoucher(app, authOf(req).userId, req.body)),
  );
  r.get(
    '/vouchers',
    {
      config,
      schema: {
        tags,
        summary: 'Vouchers this family bought, and those in its account',
        response: { 200: voucherListSchema },
      },
    },
    async (req) => ({ items: await listVouchers(app, authOf(req).userId) }),
  );
  r.get(
    '/vouchers/:code',
    {
      config,
      schema: {
        tags,
        summary: `A code's voucher: its status, balance and expiry (${wrongCodes})`,
        params: codeParams,
        response: { 200: voucherSchema, 404: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (req) => lookUpVoucher(app, authOf(req).userId, req.ip, req.params.code),
  );
  r.post(
    '/vouchers/:code/claim',
    {
      config,
      schema: {
        tags,
        summary: `Add a voucher to this account; another account's → 409 VOUCHER_CLAIMED (${wrongCodes})`,
        params: codeParams,
        response: { 200: voucherSchema, 404: errorBodySchema, 409: errorBodySchema, 429: errorBodySchema },
      },
    },
    async (req) => claimVoucher(app, authOf(req).userId, req.ip, req.params.code),
  );
  const sendPdf = (reply: FastifyReply, filename: string, body: Buffer) =>
    reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${filename}"`)
      .header('cache-control', 'private, no-store')
      .send(body);
  r.get(
    '/vouchers/:id/certificate.pdf',
    {
      config,
      schema: {
        tags,
        summary: 'The printable certificate with the code and its QR (the buyer, once paid)',
        params: idParams,
        response: { 200: pdf, 404: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (req, reply) =>
      sendPdf(reply, 'santa-gift-voucher.pdf', await voucherCertificate(app, authOf(req).userId, req.params.id)),
  );
  r.get(
    '/vouchers/:id/receipt.pdf',
    {
      config,
      schema: {
        tags,
        summary:
          "The voucher's payment receipt (a receipt, not a tax invoice: a voucher's sale is not a taxable supply)",
        params: idParams,
        response: { 200: pdf, 404: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (req, reply) => {
      const { filename, pdf: body } = await voucherReceipt(app, authOf(req).userId, req.params.id);
      return sendPdf(reply, filename, body);
    },
  );
}
