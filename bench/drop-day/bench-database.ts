import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateJwtKey } from '../../apps/api/src/config/secrets';
import { createDb, type Db } from '../../apps/api/src/db/client';
import { runMigrations } from '../../apps/api/src/db/migrate';
import type { IdTokens } from '../../apps/api/src/modules/accounts/id-tokens';
import { startPostgres } from './postgres-cluster';
import { benchIdTokens, loadBenchSeason, type ReadTarget } from './seed-data';

export interface BenchDatabase {
  /** A temp folder for logs and load specs, removed by stop(). */
  tmp: string;
  databaseUrl: string;
  db: Db;
  /** End it once the data is in: the API processes bring their own. */
  endPool: () => Promise<void>;
  season: { slots: number; targets: ReadTarget[] };
  jwtKey: string;
  idTokens: IdTokens;
  stop(): Promise<void>;
}

/**
 * What the one-process benches (bench:ab, bench:direct, bench:storm-ab, bench:live) start from:
 * a temp folder, PostgreSQL in it on `port`, one migrated database with the demo season, and a key
 * to sign customers' ID tokens with.
 */
export async function startBenchDatabase(name: string, port: number): Promise<BenchDatabase> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `kringle-${name}-`));
  // The postgres user (PostgreSQL's owner when we run as root) must reach its folder inside.
  fs.chmodSync(tmp, 0o755);
  const pg = await startPostgres(path.join(tmp, 'postgres'), port);
  const stop = async () => {
    await pg.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  };
  try {
    const database = `kringle_${name.replace(/\W/g, '_')}`;
    const admin = createDb(pg.url(), 1);
    await admin.pool.query(`create database ${database}`);
    await admin.pool.end();
    const databaseUrl = pg.url(database);
    await runMigrations(databaseUrl);
    const { db, pool } = createDb(databaseUrl, 4);
    const season = await loadBenchSeason(db);
    const jwtKey = await generateJwtKey();
    return {
      tmp,
      databaseUrl,
      db,
      endPool: () => pool.end(),
      season,
      jwtKey,
      idTokens: await benchIdTokens(jwtKey),
      stop,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}
