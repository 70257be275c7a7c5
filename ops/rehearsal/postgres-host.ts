import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { PG_BIN } from '../../bench/drop-day/postgres-cluster';
import { REPO_ROOT } from '../../bench/drop-day/processes';
import { HOSTS, type Host, type Topology } from './topology';

export const ADMIN_PASSWORD = 'rehearsal-admin-password';
export const OWNER_PASSWORD = 'rehearsal-owner-password';
export const APP_PASSWORD = 'rehearsal-app-password';

export interface PostgresHost {
  host: Host;
  /** The provider's admin user (a managed PostgreSQL's `postgres`). */
  adminUrl(database?: string): string;
  ownerUrl: string;
  appUrl: string;
  log: string;
}

/**
 * A PostgreSQL server of its own on `host`, as a managed provider hands one over: an admin user
 * with a password, reachable over the private network with password authentication. Debian's
 * PostgreSQL 15 (deploy.md's oldest supported version), whose pg_dump and pg_restore match it.
 */
export function startPostgresHost(topo: Topology, host: Host, dir: string): PostgresHost {
  if (!fs.existsSync(path.join(PG_BIN, 'initdb')))
    throw new Error(`PostgreSQL 15 not found in ${PG_BIN}: apt-get install -y postgresql-15 (Debian's package)`);
  const data = path.join(dir, 'data');
  const log = path.join(dir, 'postgres.log');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'pw'), ADMIN_PASSWORD);
  execFileSync('chown', ['-R', 'postgres:postgres', dir]);
  // PostgreSQL refuses to run as root: Debian's package made the `postgres` user.
  const asPostgres = (cmd: string, args: string[]) =>
    topo.runIn(host, 'runuser', ['-u', 'postgres', '--', path.join(PG_BIN, cmd), ...args]);
  asPostgres('initdb', [
    '-D',
    data,
    '-U',
    'postgres',
    `--pwfile=${path.join(dir, 'pw')}`,
    '--auth-local=peer',
    '--auth-host=scram-sha-256',
    '-E',
    'UTF8',
    '--locale=C.UTF-8',
  ]);
  fs.appendFileSync(
    path.join(data, 'postgresql.conf'),
    [
      '',
      `listen_addresses = '${HOSTS[host]}'`,
      `unix_socket_directories = '${dir}'`,
      'max_connections = 100',
      'shared_buffers = 128MB',
      'log_min_messages = warning',
      '',
    ].join('\n'),
  );
  fs.appendFileSync(path.join(data, 'pg_hba.conf'), '\nhost all all 10.0.0.0/24 scram-sha-256\n');
  asPostgres('pg_ctl', ['-D', data, '-l', log, '-w', '-t', '60', 'start']);
  const at = `${HOSTS[host]}:5432`;
  return {
    host,
    adminUrl: (database = 'postgres') => `postgres://postgres:${ADMIN_PASSWORD}@${at}/${database}`,
    ownerUrl: `postgres://kringle_owner:${OWNER_PASSWORD}@${at}/kringle`,
    appUrl: `postgres://kringle_app:${APP_PASSWORD}@${at}/kringle`,
    log,
  };
}

/**
 * The roles and the database, by the SQL in docs/deploy.md ("Two database roles") as written
 * there: read from the file, with the two password placeholders filled in. The statements after
 * `-- in database kringle:` run in that database.
 */
export async function createRolesAsDeployMdSays(server: PostgresHost): Promise<void> {
  const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs/deploy.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Two database roles'));
  const block = /```sql\n([\s\S]*?)```/.exec(section)?.[1];
  if (!block) throw new Error('docs/deploy.md "Two database roles" has no ```sql block');
  const [server1, inKringle] = block.split(/^-- in database kringle:$/m);
  if (inKringle === undefined)
    throw new Error('docs/deploy.md: the roles SQL no longer says `-- in database kringle:`');
  const passwords = [OWNER_PASSWORD, APP_PASSWORD];
  const sql1 = server1!.replace(/'…'/g, () => `'${passwords.shift()}'`);
  if (passwords.length) throw new Error('docs/deploy.md: expected two password placeholders in the roles SQL');
  // CREATE DATABASE cannot run inside the implicit transaction of a multi-statement query.
  for (const [database, sql] of [
    ['postgres', sql1],
    ['kringle', inKringle],
  ] as const) {
    const client = new pg.Client({ connectionString: server.adminUrl(database) });
    await client.connect();
    try {
      for (const statement of sql.split(/;\s*$/m).map((s) => s.replace(/^--.*$/gm, '').trim()))
        if (statement) await client.query(statement);
    } finally {
      await client.end();
    }
  }
}

/** One query as the admin user (checks the app's own code does not make). */
export async function adminQuery<T = Record<string, unknown>>(
  url: string,
  text: string,
  values: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}
