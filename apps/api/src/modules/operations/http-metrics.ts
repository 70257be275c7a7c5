import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { httpRequestDuration, UNMATCHED_ROUTE } from './metrics';

/** A histogram child with its labels bound: observing it is one array update, no label lookup. */
export interface BoundTimer {
  observe(seconds: number): void;
}

/** The child for one route template, method and status, made once (labels() hashes its arguments). */
export function bindTimer(route: string, method: string, status: number): BoundTimer {
  return httpRequestDuration.labels(route, method, String(status));
}

/** Per route (its config object, one per route), per method, per status: nothing built per request once warm. */
const children = new WeakMap<object, Map<string, Map<number, BoundTimer>>>();

function timerFor(request: FastifyRequest, status: number): BoundTimer {
  const options = request.routeOptions;
  let byMethod = children.get(options.config);
  if (!byMethod) children.set(options.config, (byMethod = new Map()));
  let byStatus = byMethod.get(request.method);
  if (!byStatus) byMethod.set(request.method, (byStatus = new Map()));
  let timer = byStatus.get(status);
  if (!timer) {
    // No route matched (a 404 of any path): one label, never the path itself.
    const route = request.is404 ? UNMATCHED_ROUTE : (options.url ?? UNMATCHED_ROUTE);
    byStatus.set(status, (timer = bindTimer(route, request.method, status)));
  }
  return timer;
}

/** Every request Fastify answers, by its route template (the answer lane observes its own: answer-lane.ts). */
export function recordRequestDurations(app: FastifyInstance): void {
  app.addHook('onResponse', function requestDuration(request: FastifyRequest, reply: FastifyReply, done: () => void) {
    timerFor(request, reply.statusCode).observe(reply.elapsedTime / 1000);
    done();
  });
}
