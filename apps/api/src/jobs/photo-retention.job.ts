import type { FastifyInstance } from 'fastify';
import { incomingDir, sweepAbandoned } from '../modules/photos/incoming';
import { sweepOrphanedPhotoFiles } from '../modules/photos/photo-orphans.service';
import { runPhotoRetention } from '../modules/photos/photo-retention.service';
import { photoStorageFor } from '../modules/photos/photo-storage';
import type { Job } from './runner';

/** Listing the whole photo store costs requests and time: a process sweeps it at most this often (decision 0075). */
export const ORPHAN_SWEEP_EVERY_MS = 6 * 60 * 60_000;

/**
 * Photos (decision 0054): "ready" e-mails, reminders 7 days and 1 day ahead, then every file
 * deleted; what uploads cut short by a crash left waiting in DATA_DIR/incoming; and, less often,
 * stored files no photo row points at.
 */
export function photoRetentionJob(app: FastifyInstance): Job {
  let lastSweepMs = -Infinity;
  return {
    name: 'photo-retention',
    intervalMs: 10 * 60_000,
    run: async () => {
      await runPhotoRetention(app);
      const abandoned = await sweepAbandoned(incomingDir(app.config.DATA_DIR));
      if (abandoned) app.log.info({ files: abandoned }, 'files of interrupted photo uploads deleted');
      const now = app.clock.now().getTime();
      if (now - lastSweepMs < ORPHAN_SWEEP_EVERY_MS) return;
      // Counted from the start: a sweep that fails waits its turn like one that worked.
      lastSweepMs = now;
      const { listed, deleted } = await sweepOrphanedPhotoFiles(app, photoStorageFor(app), { nowMs: now });
      app.log.info({ listed, deleted }, 'photo files with no photo row deleted');
    },
  };
}
