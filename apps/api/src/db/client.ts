import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as accounts from './schema/accounts';
import * as bookings from './schema/bookings';
import * as catalogue from './schema/catalogue';
import * as credit from './schema/credit';
import * as closureTables from './schema/closures';
import * as disputeTables from './schema/disputes';
import * as mail from './schema/mail';
import * as photos from './schema/photos';
import * as platform from './schema/platform';
import * as privacy from './schema/privacy';
import * as promos from './schema/promos';
import * as reservations from './schema/reservations';
import * as seasonVersions from './schema/season-versions';
import * as sms from './schema/sms';
import * as wallet from './schema/wallet';
import * as voucherTables from './schema/vouchers';

export const schema = {
  ...accounts,
  ...bookings,
  ...catalogue,
  ...closureTables,
  ...credit,
  ...disputeTables,
  ...mail,
  ...photos,
  ...platform,
  ...privacy,
  ...promos,
  ...reservations,
  ...seasonVersions,
  ...sms,
  ...wallet,
  ...voucherTables,
};
export type Db = NodePgDatabase<typeof schema>;
/** A transaction handle; repositories accept either this or the Db. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/**
 * Waiting longer than this for a connection (server down, pool exhausted) fails the request with a 503 instead of
 * hanging it.
 */
const CONNECT_TIMEOUT_MS = 10_000;

export function createDb(url: string, poolSize: number): { pool: pg.Pool; db: Db } {
  const pool = new pg.Pool({
    connectionString: url,
    max: poolSize,
    application_name: 'kringle-api',
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
  });
  // An idle client's error (e.g. the server restarting) must not crash the process.
  pool.on('error', () => {});
  // Nor may a checked-out one's: pg-pool removes its listener while a client is lent out, and the
  // server's "terminating connection" can even arrive in the same read as the connection's
  // ReadyForQuery, before the borrower runs. The failing query still reports the error.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzle(pool, { schema });
  db.transaction = releasingTransactions(pool);
  return { pool, db };
}

/**
 * drizzle 0.45 sends BEGIN outside its try/finally, so a connection that died between checkout
 * and BEGIN (the server restarting under load) was never given back, and the pool shrank for good.
 * Here the client is taken and released by us (destroyed when it broke); drizzle runs the
 * transaction on that one client. One drizzle wrapper per pooled client, reused.
 */
function releasingTransactions(pool: pg.Pool): Db['transaction'] {
  const perClient = new WeakMap<pg.PoolClient, Db>();
  return async (run, config) => {
    const client = await pool.connect();
    let broken: Error | undefined;
    try {
      let db = perClient.get(client);
      if (!db) perClient.set(client, (db = drizzle(client, { schema })));
      return await db.transaction(run, config);
    } catch (err) {
      if (isDatabaseUnavailable(err)) broken = err instanceof Error ? err : new Error(String(err));
      throw err;
    } finally {
      client.release(broken);
    }
  };
}

/** A unique index refused the write (SQLSTATE 23505), from pg or wrapped by drizzle. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

/** SQLSTATE classes and client errors that mean "the server is gone or restarting", not "the query is wrong". */
const UNAVAILABLE_SQLSTATES = /^(08|57P0[1-3]|53300)/;
const UNAVAILABLE_MESSAGES =
  /Connection terminated|not queryable|timeout exceeded when trying to connect|connect ECONNREFUSED|ECONNRESET|the database system is (starting up|shutting down|in recovery mode)/i;

export function isDatabaseUnavailable(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; message?: unknown; cause?: unknown } | undefined, depth = 0;
    e && depth < 5;
    e = e.cause as typeof e, depth++
  ) {
    if (
      typeof e.code === 'string' &&
      (UNAVAILABLE_SQLSTATES.test(e.code) || e.code === 'ECONNREFUSED' || e.code === 'ECONNRESET')
    )
      return true;
    if (typeof e.message === 'string' && UNAVAILABLE_MESSAGES.test(e.message)) return true;
  }
  return false;
}
