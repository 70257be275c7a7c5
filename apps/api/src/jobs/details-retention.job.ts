import type { FastifyInstance } from 'fastify';
import { purgeExpiredDetails } from '../modules/booking-lifecycle/booking-details.repository';
import type { Job } from './runner';

const BATCH = 500;

/** Deletes who-is-coming details DETAILS_RETENTION_DAYS after the session (decision 0021). Returns how many. */
export async function purgeDetails(app: Pick<FastifyInstance, 'db' | 'clock' | 'config'>): Promise<number> {
  let total = 0;
  for (;;) {
    const n = await purgeExpiredDetails(app.db, {
      now: app.clock.now(),
      retentionDays: app.config.DETAILS_RETENTION_DAYS,
      limit: BATCH,
    });
    total += n;
    if (n < BATCH) return total;
  }
}

export function detailsRetentionJob(app: FastifyInstance): Job {
  return { name: 'details-retention', intervalMs: 60 * 60_000, run: async () => void (await purgeDetails(app)) };
}
