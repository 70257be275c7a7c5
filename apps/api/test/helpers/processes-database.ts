import { generateJwtKey } from '../../src/config/secrets';
import { createDb, type Db } from '../../src/db/client';
import { systemClock } from '../../src/lib/clock';
import { IdTokens } from '../../src/modules/accounts/id-tokens';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { createTestDatabase, ownerUrlOf } from './test-app';

export interface ProcessesDatabase {
  db: Db;
  /** Signs the families' ID tokens with the key the processes check them with. */
  idTokens: IdTokens;
  /** The processes' environment that points them at this database and key (startApiProcesses). */
  /** DATABASE_URL is the runtime role's, MIGRATION_DATABASE_URL the owner's (decision 0078). */
  env: { DATABASE_URL: string; MIGRATION_DATABASE_URL: string; JWT_PRIVATE_KEY: string; APP_CHECK_SECRET: string };
  close(): Promise<void>;
}

/**
 * What every test that starts real API processes begins with: a fresh database with its own pool,
 * the demo season on the system clock when `seasonDays` is given, and one JWT key for the test and
 * the processes.
 */
export async function createProcessesDatabase(
  options: { poolSize?: number; season?: { days?: number } } = {},
): Promise<ProcessesDatabase> {
  const url = await createTestDatabase();
  const { db, pool } = createDb(url, options.poolSize ?? 5);
  if (options.season) {
    const now = new Date();
    await loadSeason(db, demoSeason(now, options.season), now);
  }
  const jwtKey = await generateJwtKey();
  const idTokens = await IdTokens.create({
    privateKeyPem: jwtKey,
    issuer: 'kringle',
    audience: 'kringle-web',
    clock: systemClock,
  });
  // App check is off in the processes (api-processes.ts); the secret is only required configuration.
  const env = {
    DATABASE_URL: url,
    MIGRATION_DATABASE_URL: ownerUrlOf(url),
    JWT_PRIVATE_KEY: jwtKey,
    APP_CHECK_SECRET: 'processes-test-secret-0123456789abcdef',
  };
  return { db, idTokens, env, close: () => pool.end() };
}
