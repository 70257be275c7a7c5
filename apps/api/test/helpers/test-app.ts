import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { inject } from 'vitest';
import { buildApp } from '../../src/app';
import { loadConfig, type Config } from '../../src/config/config';
import { generateJwtKey, type Secrets } from '../../src/config/secrets';
import { createDb, type Db } from '../../src/db/client';
import { ManualClock } from '../../src/lib/clock';
import { withDatabase } from '../global-setup';

export interface TestApp {
  app: FastifyInstance;
  db: Db;
  pool: pg.Pool;
  clock: ManualClock;
  config: Config;
  /** The runtime role's URL, which the app (and `db`) use. */
  databaseUrl: string;
  /** The same database as its owner (the superuser): setup the runtime role may not do (decision 0078). */
  ownerUrl: string;
  close(): Promise<void>;
}

export const TEST_APP_CHECK_SECRET = 'test-app-check-secret-0123456789abcdef';

let cachedKey: string | null = null;

/**
 * A fresh database cloned from the migrated template, so test files never see each other's rows.
 * Its URL signs in as the runtime role (the grants come with the clone); `ownerUrlOf` gives the owner.
 */
export async function createTestDatabase(): Promise<string> {
  const base = inject('pgBaseUrl');
  const name = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  await admin.query(`create database ${name} template kringle_template`);
  await admin.end();
  return withDatabase(inject('pgRuntimeUrl'), name);
}

/** The owner's (superuser's) URL of the test database `url` names. */
export function ownerUrlOf(url: string): string {
  return withDatabase(inject('pgBaseUrl'), new URL(url).pathname.slice(1));
}

/**
 * The real app against real PostgreSQL, driven with `app.inject`. App check, rate limits and
 * jobs are off unless a test turns them on through `env`.
 */
export async function createTestApp(
  env: Record<string, string> = {},
  clock = new ManualClock(),
  /** Registers test-only routes before the app is ready. */
  extend?: (app: FastifyInstance) => void | Promise<void>,
  /** `databaseUrl`: a second instance on an existing test database; `appCheckSecret`: another key. */
  options: { databaseUrl?: string; appCheckSecret?: string } = {},
): Promise<TestApp> {
  const databaseUrl = options.databaseUrl ?? (await createTestDatabase());
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl,
    APP_CHECK_MODE: 'off',
    RATE_LIMIT_MODE: 'off',
    JOBS_ENABLED: 'false',
    SERVE_WEB: 'false',
    APP_ORIGINS: 'http://localhost:5173,http://localhost:3000',
    ...env,
  });
  cachedKey ??= await generateJwtKey();
  const secrets: Secrets = {
    jwtPrivateKeyPem: cachedKey,
    appCheckSecret: options.appCheckSecret ?? TEST_APP_CHECK_SECRET,
  };
  const { db, pool } = createDb(databaseUrl, 5);
  const app = await buildApp({ config, secrets, db, pool, clock });
  await extend?.(app);
  await app.ready();
  return {
    app,
    db,
    pool,
    clock,
    config,
    databaseUrl,
    ownerUrl: ownerUrlOf(databaseUrl),
    async close() {
      await app.close();
      await pool.end();
    },
  };
}
