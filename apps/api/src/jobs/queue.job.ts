import type { FastifyInstance } from 'fastify';
import { queuePass } from '../modules/queue/queue-admission.service';
import type { Job } from './runner';

/**
 * The fair start (decision 0053): opens lines when their time comes, draws at the opening instant
 * (twice a second: within 1 s of it) and admits by stock. Multi-process safe: the draw is one
 * conditional UPDATE and each line's pass runs under pg_try_advisory_xact_lock.
 */
export function queueJob(app: FastifyInstance): Job {
  return { name: 'queue', intervalMs: 500, run: () => queuePass(app) };
}
