import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const PG_BIN = '/usr/lib/postgresql/15/bin';

export interface PostgresCluster {
  url: (database?: string) => string;
  port: number;
  version: string;
  stop(): Promise<void>;
}

/**
 * PostgreSQL refuses to run as root, so as root the cluster belongs to the `postgres` user that
 * Debian's package creates; otherwise it runs as whoever runs the bench.
 */
const asOwner = (cmd: string, args: string[]) =>
  process.getuid?.() === 0 ? run('runuser', ['-u', 'postgres', '--', cmd, ...args]) : run(cmd, args);

/**
 * Settings for a benchmark on a small machine: enough connections for pgbench's 100 clients plus
 * three API pools, buffers that hold the whole data set, and durability left on (fsync and
 * synchronous_commit stay at their defaults) so a hold costs what it costs in production.
 */
const TUNING = [
  "listen_addresses = '127.0.0.1'",
  'max_connections = 250',
  'shared_buffers = 256MB',
  'effective_cache_size = 1GB',
  'work_mem = 8MB',
  'maintenance_work_mem = 128MB',
  'wal_buffers = 16MB',
  'checkpoint_timeout = 15min',
  'max_wal_size = 2GB',
  'random_page_cost = 1.1',
  'jit = off',
  'log_min_messages = warning',
  'autovacuum_naptime = 10s',
  // Which statements each scenario ran, for the report (the cost of tracking is a few percent).
  "shared_preload_libraries = 'pg_stat_statements'",
  'pg_stat_statements.track = top',
];

/** initdb a throwaway cluster in `dir` and start it on 127.0.0.1:`port`. */
export async function startPostgres(dir: string, port: number): Promise<PostgresCluster> {
  if (!fs.existsSync(path.join(PG_BIN, 'initdb'))) {
    throw new Error(`PostgreSQL 15 not found in ${PG_BIN}: apt-get install -y postgresql-15 (Debian's package)`);
  }
  const data = path.join(dir, 'pgdata');
  fs.mkdirSync(dir, { recursive: true });
  if (process.getuid?.() === 0) await run('chown', ['-R', 'postgres:postgres', dir]);
  await asOwner(path.join(PG_BIN, 'initdb'), [
    '-D',
    data,
    '-U',
    'postgres',
    '--auth=trust',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
  ]);
  fs.appendFileSync(
    path.join(data, 'postgresql.conf'),
    `\n# drop-day benchmark\nport = ${port}\n${TUNING.join('\n')}\n`,
  );
  await asOwner(path.join(PG_BIN, 'pg_ctl'), [
    '-D',
    data,
    '-l',
    path.join(dir, 'postgres.log'),
    '-w',
    '-t',
    '60',
    'start',
  ]);
  const { stdout } = await run(path.join(PG_BIN, 'postgres'), ['--version']);
  const url = (database = 'postgres') => `postgres://postgres@127.0.0.1:${port}/${database}`;
  let stopped = false;
  return {
    url,
    port,
    version: stdout.trim(),
    async stop() {
      if (stopped) return;
      stopped = true;
      await asOwner(path.join(PG_BIN, 'pg_ctl'), ['-D', data, '-m', 'fast', '-w', 'stop']).catch(() => {});
    },
  };
}

/**
 * Runs pgbench with a custom script as prepared statements (as the API runs the hold), and
 * returns transactions per second (connection time excluded).
 */
export async function pgbench(
  cluster: PostgresCluster,
  database: string,
  script: string,
  opts: { clients: number; transactionsPerClient: number },
) {
  const { stdout } = await run(
    path.join(PG_BIN, 'pgbench'),
    [
      '-n',
      '-M',
      'prepared',
      '-h',
      '127.0.0.1',
      '-p',
      String(cluster.port),
      '-U',
      'postgres',
      '-c',
      String(opts.clients),
      '-j',
      '2',
      '-t',
      String(opts.transactionsPerClient),
      '-f',
      script,
      database,
    ],
    { maxBuffer: 10 * 1024 * 1024 },
  );
  const tps = /tps = ([\d.]+) \(without initial connection time\)/.exec(stdout);
  const latency = /latency average = ([\d.]+) ms/.exec(stdout);
  const failed = /number of failed transactions: (\d+)/.exec(stdout);
  if (!tps) throw new Error(`pgbench output not understood:\n${stdout}`);
  return {
    tps: Number(tps[1]),
    latencyAvgMs: latency ? Number(latency[1]) : null,
    failed: failed ? Number(failed[1]) : 0,
  };
}
