import type { FastifyInstance } from 'fastify';
import { ParamsReader } from './params-reader';
import type { SandboxState } from './sandbox-state';
import { invalidParam, noSuchResource } from './stripe-errors';
import { stripeRoute, type RouteDeps } from './stripe-route';

/** The event log, newest first like Stripe's, for reconciling missed webhooks. */
export function eventsRoutes(app: FastifyInstance, { deps, state }: { deps: RouteDeps; state: SandboxState }): void {
  app.get(
    '/v1/events/:id',
    stripeRoute(deps, {}, (call) => {
      new ParamsReader(call.params, []);
      const event = state.eventsById.get(call.pathParams.id!);
      if (!event) throw noSuchResource('event', call.pathParams.id!);
      return event;
    }),
  );

  app.get(
    '/v1/events',
    stripeRoute(deps, {}, (call) => {
      const p = new ParamsReader(call.params, ['limit', 'type', 'starting_after']);
      const limit = p.integer('limit') ?? 10;
      if (limit < 1 || limit > 100)
        throw invalidParam('limit', 'This value must be between 1 and 100.', 'parameter_invalid_integer');
      const type = p.string('type');
      const after = p.string('starting_after');
      let events = [...state.events].reverse().filter((e) => !type || matchesType(e.type, type));
      if (after) {
        const i = events.findIndex((e) => e.id === after);
        if (i === -1) throw noSuchResource('event', after, 'starting_after');
        events = events.slice(i + 1);
      }
      return { object: 'list', data: events.slice(0, limit), has_more: events.length > limit, url: '/v1/events' };
    }),
  );
}

// Stripe's `type` filter accepts a trailing wildcard: `payment_intent.*`.
function matchesType(type: string, filter: string): boolean {
  return filter.endsWith('.*') ? type.startsWith(filter.slice(0, -1)) : type === filter;
}
