import type { FastifyInstance } from 'fastify';
import { incomingDir, sweepAbandoned } from '../modules/photos/incoming';
import { runPhotoRetention } from '../modules/photos/photo-retention.service';
import type { Job } from './runner';

/**
 * Photos (decision 0054): "ready" e-mails, reminders 7 days and 1 day ahead, then every file
 * deleted; and what uploads cut short by a crash left waiting in DATA_DIR/incoming.
 */
export function photoRetentionJob(app: FastifyInstance): Job {
  return {
    name: 'photo-retention',
    intervalMs: 10 * 60_000,
    run: async () => {
      await runPhotoRetention(app);
      const abandoned = await sweepAbandoned(incomingDir(app.config.DATA_DIR));
      if (abandoned) app.log.info({ files: abandoned }, 'files of interrupted photo uploads deleted');
    },
  };
}
