import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { errorBodySchema } from '@kringle/contracts/errors';
import {
  promoCodeBodySchema,
  promoCodeListSchema,
  promoCodeParamsSchema,
  promoCodePatchSchema,
  promoCodeSchema,
} from '@kringle/contracts/promos';
import { authOf } from '../../plugins/auth';
import { changePromo, createPromo, promoList } from './promo-codes.service';

/** Managers' promo codes (issue 52, API.md "Gift vouchers, promo codes, credit, donations"). */
export async function promoCodesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const manager = { auth: 'staff' as const, staffRoles: ['manager'] as const };
  const tags = ['staff'];
  const staffOf = (req: FastifyRequest) => {
    const auth = authOf(req);
    return { userId: auth.userId, email: auth.email };
  };
  const reachOf = (req: FastifyRequest) => ({ locationIds: req.staffAccess?.locationIds ?? [] });
  const description =
    'A percent code takes round(goods × value / 100) cents off, an amount code `value` cents; neither below ' +
    'zero. One code a cart; codes are in capitals (what a family types is too). A use counts while its booking ' +
    'is paid or being paid: a lapsed, cancelled or refunded booking gives it back. A manager kept to some ' +
    'locations makes codes for those only.';

  r.get(
    '/staff/promo-codes',
    {
      config: manager,
      schema: {
        tags,
        summary: 'Every promo code, newest first, with its uses',
        response: { 200: promoCodeListSchema },
      },
    },
    async () => ({ items: await promoList(app) }),
  );
  r.post(
    '/staff/promo-codes',
    {
      config: manager,
      schema: {
        tags,
        summary: 'Create a promo code',
        description,
        body: promoCodeBodySchema,
        response: { 201: promoCodeSchema, 400: errorBodySchema, 403: errorBodySchema, 409: errorBodySchema },
      },
    },
    async (req, reply) => reply.code(201).send(await createPromo(app, staffOf(req), reachOf(req), req.body)),
  );
  r.patch(
    '/staff/promo-codes/:id',
    {
      config: manager,
      schema: {
        tags,
        summary: 'Change a promo code’s rules, or switch it off and on',
        description: `${description} The code's letters do not change.`,
        params: promoCodeParamsSchema,
        body: promoCodePatchSchema,
        response: { 200: promoCodeSchema, 400: errorBodySchema, 403: errorBodySchema, 404: errorBodySchema },
      },
    },
    async (req) => changePromo(app, staffOf(req), reachOf(req), req.params.id, req.body),
  );
}
