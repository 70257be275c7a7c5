import type pg from 'pg';
import { Counter, Gauge } from 'prom-client';
import { metricsRegistry } from './metrics';
import { pendingMail, pendingSms, pendingWallet, queueWaiting } from './operations.repository';

/**
 * Gauges read at scrape time (collect), never on a request's path: the database ones cost one
 * cheap query each per scrape. The pool is the app's, set when it is built (one app per process
 * in production; in tests the latest one built and not yet closed).
 */
const sources: { pool: pg.Pool; poolMax: number }[] = [];
let source: { pool: pg.Pool; poolMax: number } | null = null;

/** Job name → when it last finished a pass and its interval (jobs/runner.ts reports). */
const jobPasses = new Map<string, { finishedAt: number; intervalMs: number }>();
/** Admissions counted by location id until a scrape knows the slug (the queue pass has only the id). */
const admissionsById = new Map<string, number>();
const slugOf = new Map<string, string>();

/** From the app's build to its close: returns the function that stops measuring this pool. */
export function measurePool(pool: pg.Pool, poolMax: number): () => void {
  const entry = { pool, poolMax };
  sources.push(entry);
  source = entry;
  return () => {
    sources.splice(sources.indexOf(entry), 1);
    source = sources.at(-1) ?? null;
  };
}

export function jobStarted(job: string, intervalMs: number): void {
  if (!jobPasses.has(job)) jobPasses.set(job, { finishedAt: Date.now(), intervalMs });
}

export function jobFinished(job: string, intervalMs: number): void {
  jobPasses.set(job, { finishedAt: Date.now(), intervalMs });
}

export function countAdmissions(locationId: string, admitted: number): void {
  admissionsById.set(locationId, (admissionsById.get(locationId) ?? 0) + admitted);
}

/** The lines' figures, read once per scrape however many metrics ask (their collects run at once). */
let reading: ReturnType<typeof queueWaiting> | null = null;
const readLines = (pool: pg.Pool) => (reading ??= queueWaiting(pool).finally(() => (reading = null)));

// A failed query leaves the gauge as it was: the scrape still answers, and the pool gauge shows why.
const quietly = async (read: () => Promise<void>) => read().catch(() => undefined);

new Gauge({
  name: 'kringle_outbox_pending',
  help: 'Outbox rows waiting to be sent, by kind (mail, sms; wallet_apple, wallet_google: changed passes).',
  labelNames: ['kind'] as const,
  registers: [metricsRegistry],
  async collect() {
    if (source) await quietly(async () => void this.labels('mail').set(await pendingMail(source!.pool)));
    if (source) await quietly(async () => void this.labels('sms').set(await pendingSms(source!.pool)));
    if (source)
      await quietly(async () => {
        const wallet = await pendingWallet(source!.pool);
        this.labels('wallet_apple').set(wallet.apple);
        this.labels('wallet_google').set(wallet.google);
      });
  },
});

new Gauge({
  name: 'kringle_job_lag_seconds',
  help:
    'Seconds a background job is behind: since its last finished pass in this process, less its interval (0 = on ' +
    'time).',
  labelNames: ['job'] as const,
  registers: [metricsRegistry],
  collect() {
    const now = Date.now();
    for (const [job, pass] of jobPasses)
      this.labels(job).set(Math.max(0, (now - pass.finishedAt - pass.intervalMs) / 1000));
  },
});

new Gauge({
  name: 'kringle_queue_waiting',
  help: 'Families placed in a fair-start line (drawn or arrived late) waiting for admission, by location slug.',
  labelNames: ['location'] as const,
  registers: [metricsRegistry],
  async collect() {
    if (!source) return;
    await quietly(async () => {
      for (const row of await readLines(source!.pool)) this.labels(row.slug).set(row.waiting);
    });
  },
});

new Counter({
  name: 'kringle_queue_admissions_total',
  help: 'Families admitted from a fair-start waiting room by this process, by location slug.',
  labelNames: ['location'] as const,
  registers: [metricsRegistry],
  // The queue pass knows only the location's id: its admissions wait here for the slug.
  async collect() {
    if (!source) return;
    await quietly(async () => {
      for (const row of await readLines(source!.pool)) slugOf.set(row.id, row.slug);
    });
    for (const [id, admitted] of admissionsById) {
      const slug = slugOf.get(id);
      if (!slug) continue;
      this.labels(slug).inc(admitted);
      admissionsById.delete(id);
    }
    for (const slug of slugOf.values()) this.labels(slug).inc(0);
  },
});

new Gauge({
  name: 'kringle_db_pool_connections',
  help:
    'The PostgreSQL pool of this process: connections by state (active, idle, waiting = queries waiting for one, ' +
    'max).',
  labelNames: ['state'] as const,
  registers: [metricsRegistry],
  collect() {
    if (!source) return;
    const { pool, poolMax } = source;
    this.labels('active').set(pool.totalCount - pool.idleCount);
    this.labels('idle').set(pool.idleCount);
    this.labels('waiting').set(pool.waitingCount);
    this.labels('max').set(poolMax);
  },
});
