import type { FastifyInstance } from 'fastify';
import { expireLapsedHolds } from '../modules/sessions/system-holds.repository';
import type { Job } from './runner';

/** Lapsed holds: readers already treat them as free, so this only keeps the tables honest. */
export function holdExpiryJob(app: FastifyInstance): Job {
  return {
    name: 'hold-expiry',
    intervalMs: 15_000,
    async run() {
      while ((await expireLapsedHolds(app.db, app.clock.now())) > 0) {
        // Keep going while full batches come back.
      }
    },
  };
}
