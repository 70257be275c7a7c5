import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { API_ROOT } from '../lib/api-root';
import { grantRuntimeRole, roleOfUrl } from './roles';

export const MIGRATIONS_DIR = path.join(API_ROOT, 'drizzle');

/**
 * Applies the committed SQL migrations. An advisory lock makes concurrent starts of several API
 * processes wait for one another instead of racing on the same DDL. `grantTo`: the runtime role
 * the API runs as, given its grants afterwards by the owner `url` signs in as (db/roles.ts).
 */
export async function runMigrations(url: string, options: { grantTo?: string } = {}): Promise<void> {
  const client = new pg.Client({ connectionString: url, application_name: 'kringle-migrate' });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(7426001)');
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
    if (options.grantTo) await grantRuntimeRole(client, options.grantTo);
  } finally {
    await client.query('select pg_advisory_unlock(7426001)').catch(() => {});
    await client.end();
  }
}

/**
 * Migrates as `ownerUrl` and grants the role `runtimeUrl` signs in as (decision 0078); with no
 * owner URL (or the same one), migrates as `runtimeUrl` itself, as deployments from before do.
 */
export async function migrateDatabase(runtimeUrl: string, ownerUrl?: string): Promise<void> {
  if (!ownerUrl || ownerUrl === runtimeUrl) return runMigrations(runtimeUrl);
  await runMigrations(ownerUrl, { grantTo: await roleOfUrl(runtimeUrl) });
}
