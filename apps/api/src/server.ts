import closeWithGrace from 'close-with-grace';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { ConfigError, type Config } from './config/config';
import type { Secrets } from './config/secrets';
import { createDb } from './db/client';
import { migrateDatabase } from './db/migrate';
import { runtimeRoleProblems } from './db/roles';
import { demoAccountsIn } from './modules/accounts/demo-accounts.seed';
import { allJobs } from './jobs/all-jobs';
import { startJobs } from './jobs/runner';
import { startSessionCutoffsListener } from './modules/accounts/session-cutoffs.listener';
import { startSlotEventsListener } from './modules/sessions/slot-events.listener';
import { handOffOnFree } from './modules/waitlist/waitlist.hand-off';
import { startConfiguredMetrics } from './modules/operations/metrics-server';
import type { Tracing } from './modules/operations/tracing';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** Where this process's Prometheus metrics are (null: off); docs/operations.md. */
  metricsUrl: string | null;
  close(): Promise<void>;
}

/**
 * Migrates, builds the app, runs `prepare` (the demo data), then listens: /health and /ready
 * cannot answer, and no availability answer can be cached, before the app can serve a family.
 * Also runs the background jobs and the slot-events and session-ends listeners, and shuts all of it
 * down gracefully: on SIGTERM after a drain (decision 0093). */
export async function runServer(
  config: Config,
  secrets: Secrets,
  databaseUrl: string,
  options: {
    onClose?: () => Promise<void>;
    prepare?: (app: FastifyInstance) => Promise<void>;
    migrationUrl?: string;
    /** On when OTEL_EXPORTER_OTLP_ENDPOINT is set (start.ts, decision 0095). */
    tracing?: Tracing | null;
  } = {},
): Promise<RunningServer> {
  // Two roles (decision 0078): the owner migrates and grants the runtime role what it needs.
  // One URL only (deployments from before): it migrates as before, and a warning says why not.
  await migrateDatabase(databaseUrl, options.migrationUrl);
  const { db, pool } = createDb(databaseUrl, config.DATABASE_POOL_SIZE);
  if (config.NODE_ENV === 'production') {
    const demo = await demoAccountsIn(db);
    if (demo.length) {
      await pool.end();
      throw new ConfigError(
        `Invalid configuration: DATABASE_URL: this database has the demo accounts ` +
          `(${demo.join(', ')}), whose password is in the README; NODE_ENV=production refuses to start on it (delete ` +
          `them first)`,
      );
    }
  }
  const tracing = options.tracing ?? undefined;
  const app = await buildApp({ config, secrets, db, pool, tracing });
  const problems = await runtimeRoleProblems(pool);
  if (problems.length) {
    app.log.warn(
      `the API's database role can rewrite the audit trail ` +
        `(${problems.join('; ')}): run it as a role that owns nothing, ` +
        'with DATABASE_URL for that role and MIGRATION_DATABASE_URL for the owner (docs/deploy.md, "Two database ' +
        'roles")',
    );
  }
  const jobs = config.JOBS_ENABLED ? startJobs(allJobs(app), app.log) : { stop: async () => {} };
  const handOff = handOffOnFree(app);
  const listener = startSlotEventsListener({
    state: app.slotState,
    clock: app.clock,
    log: app.log,
    databaseUrl,
    // A free also lets the next family in, at a location with a fair-start line (decision 0053).
    onFreed: handOff
      ? (slotId) => {
          handOff(slotId);
          app.queueGate.freed(slotId);
        }
      : undefined,
  });
  // Sessions ended on any process (deletion, password change, sign out everywhere): decision 0063.
  const sessionEnds = startSessionCutoffsListener({
    cutoffs: app.sessionCutoffs,
    db,
    clock: app.clock,
    log: app.log,
    databaseUrl,
  });
  await Promise.all([listener.ready, sessionEnds.ready]);
  app.addHook('onClose', async () => {
    await sessionEnds.stop();
    await listener.stop();
    await jobs.stop();
    await pool.end();
  });
  try {
    await options.prepare?.(app);
  } catch (err) {
    await app.close();
    throw err;
  }
  await app.listen({ port: config.PORT, host: config.HOST });
  // Its own listener, never the public port (decision 0088).
  const metrics = await startConfiguredMetrics(config, app.log);
  const close = async () => {
    await metrics?.close();
    await app.close();
    // The spans of the last requests, before the process goes.
    await tracing?.shutdown().catch((err: unknown) => app.log.warn({ err }, 'traces not all sent'));
    await options.onClose?.();
  };
  // A second signal exits at once (close-with-grace), also during the drain.
  closeWithGrace({ delay: config.SHUTDOWN_DRAIN_MS + 10_000 }, async ({ err, signal }) => {
    if (err) app.log.error({ err }, 'shutting down after an error');
    else app.log.info({ signal }, 'shutting down');
    // A stop behind the proxy drains first (decision 0093); Ctrl-C at a terminal closes at once.
    if (signal === 'SIGTERM') {
      app.answerLane.stop(); // its answers would keep their connections open
      await app.drain.run(config.SHUTDOWN_DRAIN_MS);
    }
    await close();
  });
  return { app, url: `http://localhost:${config.PORT}`, metricsUrl: metrics?.url ?? null, close };
}
