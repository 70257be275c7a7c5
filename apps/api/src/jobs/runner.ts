import type { FastifyBaseLogger } from 'fastify';
import { jobFinished, jobStarted } from '../modules/operations/operations.gauges';

export interface Job {
  name: string;
  intervalMs: number;
  /**
   * One pass. Must be safe with several API processes running it at once (claim rows with
   * `FOR UPDATE SKIP LOCKED` or take a `pg_try_advisory_xact_lock`), and must finish on its own.
   */
  run(): Promise<void>;
}

/** Runs each job on its interval, never overlapping itself; errors are logged, not fatal. */
export function startJobs(jobs: Job[], log: FastifyBaseLogger): { stop(): Promise<void> } {
  let stopped = false;
  const running = new Set<Promise<void>>();
  const timers = jobs.map((job) => {
    let busy = false;
    // Its lag (kringle_job_lag_seconds) counts from the start until its first pass finishes.
    jobStarted(job.name, job.intervalMs);
    const tick = () => {
      if (busy || stopped) return;
      busy = true;
      const pass = job
        .run()
        .then(() => jobFinished(job.name, job.intervalMs))
        .catch((err: unknown) => log.error({ err, job: job.name }, 'job failed'))
        .finally(() => {
          busy = false;
          running.delete(pass);
        });
      running.add(pass);
    };
    setImmediate(tick);
    return setInterval(tick, job.intervalMs);
  });
  return {
    async stop() {
      stopped = true;
      timers.forEach(clearInterval);
      await Promise.allSettled([...running]);
    },
  };
}
