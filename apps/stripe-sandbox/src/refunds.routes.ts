import type { FastifyInstance } from 'fastify';
import { ParamsReader } from './params-reader';
import type { SandboxState } from './sandbox-state';
import { noSuchResource } from './stripe-errors';
import { stripeRoute, type RouteDeps } from './stripe-route';
import { createRefund, getRefund, REFUND_FIELDS } from './refunds.service';

/** Refunds, and charges to read back what a refund did to them. */
export function refundsRoutes(app: FastifyInstance, { deps, state }: { deps: RouteDeps; state: SandboxState }): void {
  app.post(
    '/v1/refunds',
    stripeRoute(deps, {}, (call) =>
      structuredClone(createRefund(state, new ParamsReader(call.params, REFUND_FIELDS), call.request)),
    ),
  );

  app.get(
    '/v1/refunds/:id',
    stripeRoute(deps, {}, (call) => {
      new ParamsReader(call.params, []);
      return structuredClone(getRefund(state, call.pathParams.id!));
    }),
  );

  app.get(
    '/v1/charges/:id',
    stripeRoute(deps, {}, (call) => {
      new ParamsReader(call.params, []);
      const charge = state.charges.get(call.pathParams.id!);
      if (!charge) throw noSuchResource('charge', call.pathParams.id!);
      return structuredClone(charge);
    }),
  );
}
