import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as accounts from './schema/accounts';
import * as bookings from './schema/bookings';
import * as catalogue from './schema/catalogue';
import * as mail from './schema/mail';
import * as platform from './schema/platform';
import * as reservations from './schema/reservations';

export const schema = { ...accounts, ...bookings, ...catalogue, ...mail, ...platform, ...reservations };
export type Db = NodePgDatabase<typeof schema>;
/** A transaction handle; repositories accept either this or the Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

export function createDb(url: string, poolSize: number): { pool: pg.Pool; db: Db } {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, application_name: 'kringle-api' });
  // An idle client's error (e.g. the server restarting) must not crash the process.
  pool.on('error', () => {});
  return { pool, db: drizzle(pool, { schema }) };
}
