import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { httpRequestDuration, UNMATCHED_ROUTE } from './metrics';

/** A histogram child with its labels bound: observing it is one array update, no label lookup. */
export interface BoundTimer {
  observe(seconds: number): void;
}

/** prom-client's own record of one label set (lib/histogram.js createBaseValues): per-bucket counts, sum, count. */
interface SeriesEntry {
  labels: Record<string, string>;
  bucketValues: Record<string, number>;
  sum: number;
  count: number;
}

const BOUNDS = (httpRequestDuration as unknown as { upperBounds?: number[] }).upperBounds ?? [];
/** The buckets' keys as strings once: a number used as a key would be turned into a string per answer. */
const BOUND_KEYS = BOUNDS.map(String);

/**
 * The record prom-client keeps for one label set, updated in place: its child's observe builds a
 * label object and a hash string per call, and the answer lane's CPU per answer is budgeted
 * (decisions 0071, 0077, 0088). This is what that observe does, less the lookups.
 */
export class SeriesTimer implements BoundTimer {
  constructor(private readonly entry: SeriesEntry) {}
  observe(seconds: number): void {
    const entry = this.entry;
    entry.sum += seconds;
    entry.count += 1;
    for (let i = 0; i < BOUNDS.length; i++) {
      if (seconds <= BOUNDS[i]!) {
        entry.bucketValues[BOUND_KEYS[i]!]! += 1;
        return;
      }
    }
  }
}

/**
 * A timer for one route template, method and status, made once. When prom-client's record of the
 * label set is not where this version keeps it, its child's observe (the same figures, dearer).
 */
export function bindTimer(route: string, method: string, status: number): BoundTimer {
  const labels = { route, method, status_code: String(status) };
  const child = httpRequestDuration.labels(labels);
  child.observe(0);
  const map = (httpRequestDuration as unknown as { hashMap?: Record<string, SeriesEntry> }).hashMap ?? {};
  const entry = Object.values(map).find(
    (e) => e.labels?.route === route && e.labels.method === method && e.labels.status_code === labels.status_code,
  );
  if (
    !entry ||
    !BOUNDS.length ||
    typeof entry.sum !== 'number' ||
    !BOUND_KEYS.every((k) => typeof entry.bucketValues?.[k] === 'number')
  )
    return child;
  // Undo the probe's observation of 0 (counted in the first bucket).
  entry.count -= 1;
  entry.bucketValues[BOUND_KEYS[0]!]! -= 1;
  return new SeriesTimer(entry);
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
