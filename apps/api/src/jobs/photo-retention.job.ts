import type { FastifyInstance } from 'fastify';
import { runPhotoRetention } from '../modules/photos/photo-retention.service';
import type { Job } from './runner';

/** Photos (decision 0054): "ready" e-mails, reminders 7 days and 1 day ahead, then every file deleted. */
export function photoRetentionJob(app: FastifyInstance): Job {
  return { name: 'photo-retention', intervalMs: 10 * 60_000, run: async () => void (await runPhotoRetention(app)) };
}
