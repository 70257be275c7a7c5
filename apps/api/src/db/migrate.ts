import path from 'node:path';
import { drizzle } from 'drizzle-orm/node-postgres';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import pg from 'pg';
import { API_ROOT } from '../lib/api-root';

export const MIGRATIONS_DIR = path.join(API_ROOT, 'drizzle');

/**
 * Applies the committed SQL migrations. An advisory lock makes concurrent starts of several API
 * processes wait for one another instead of racing on the same DDL.
 */
export async function runMigrations(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, application_name: 'kringle-migrate' });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(7426001)');
    await migrate(drizzle(client), { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.query('select pg_advisory_unlock(7426001)').catch(() => {});
    await client.end();
  }
}
