import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  disputeListSchema,
  disputeParamsSchema,
  disputeSchema,
  disputeSubmitBodySchema,
} from '@kringle/contracts/disputes';
import { errorBodySchema } from '@kringle/contracts/errors';
import { authOf } from '../../plugins/auth';
import { assertStaffLocation } from '../../plugins/staff-access';
import { disputesFor, submitDispute } from './disputes.service';

/** Chargebacks for support (issue 56, API.md "Money after the sale"). */
export async function disputesRoutes(app: FastifyInstance) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const support = { auth: 'staff' as const, staffRoles: ['support'] as const };
  const tags = ['staff'];
  const locationOf = (req: FastifyRequest) => (locationId: string) => assertStaffLocation(req, locationId);

  r.get(
    '/staff/disputes',
    {
      config: support,
      schema: {
        tags,
        summary: "Disputed payments at the caller's locations, with the evidence drafted for each",
        description:
          'Opened by Stripe (charge.dispute.created); the evidence is drafted from what Kringle holds (the policy ' +
          'accepted at checkout and when, the address the payment came from, the check-in, photo access, receipts ' +
          "and e-mails) and staged on Stripe with submit:false. Stripe's receipt and customer_communication take " +
          'files: their text is sent within uncategorized_text (decision 0105).',
        response: { 200: disputeListSchema },
      },
    },
    async (req) => ({ items: await disputesFor(app, req.staffAccess?.locationIds ?? []) }),
  );
  r.post(
    '/staff/disputes/:id/submit',
    {
      config: support,
      schema: {
        tags,
        summary: 'Submit the evidence to Stripe, with support’s statement',
        description:
          'The statement goes first in uncategorized_text and into the audit trail. 409 DISPUTE_CLOSED once it is ' +
          'submitted (by anyone) or closed; 503 when Stripe cannot be reached (nothing is recorded).',
        params: disputeParamsSchema,
        body: disputeSubmitBodySchema,
        response: {
          200: disputeSchema,
          400: errorBodySchema,
          403: errorBodySchema,
          404: errorBodySchema,
          409: errorBodySchema,
          503: errorBodySchema,
        },
      },
    },
    async (req) => submitDispute(app, authOf(req), req.params.id, req.body.reason, locationOf(req)),
  );
}
