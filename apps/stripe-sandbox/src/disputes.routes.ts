import type { FastifyInstance } from 'fastify';
import { ParamsReader } from './params-reader';
import type { SandboxState } from './sandbox-state';
import { stripeRoute, type RouteDeps } from './stripe-route';
import { acceptDispute, DISPUTE_UPDATE_FIELDS, getDispute, listDisputes, updateDispute } from './disputes.service';

/** Disputes as Stripe has them: read, evidence staged or submitted, accepted. */
export function disputesRoutes(app: FastifyInstance, { deps, state }: { deps: RouteDeps; state: SandboxState }): void {
  app.get(
    '/v1/disputes',
    stripeRoute(deps, {}, (call) =>
      structuredClone(
        listDisputes(state, new ParamsReader(call.params, ['limit', 'charge', 'payment_intent', 'starting_after'])),
      ),
    ),
  );

  app.get(
    '/v1/disputes/:id',
    stripeRoute(deps, {}, (call) => {
      new ParamsReader(call.params, []);
      return structuredClone(getDispute(state, call.pathParams.id!));
    }),
  );

  app.post(
    '/v1/disputes/:id',
    stripeRoute(deps, {}, (call) =>
      structuredClone(
        updateDispute(state, call.pathParams.id!, new ParamsReader(call.params, DISPUTE_UPDATE_FIELDS), call.request),
      ),
    ),
  );

  app.post(
    '/v1/disputes/:id/close',
    stripeRoute(deps, {}, (call) => {
      new ParamsReader(call.params, []);
      return structuredClone(acceptDispute(state, call.pathParams.id!, call.request));
    }),
  );
}
