import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const REPO_ROOT = path.resolve(import.meta.dirname, '../..');

export interface RunningServer {
  url: string;
  stop: () => Promise<void>;
}

async function ready(url: string): Promise<boolean> {
  try {
    return (await fetch(`${url}/api/v1/ready`)).ok;
  } catch {
    return false;
  }
}

/**
 * The real stack as the end-to-end tests run it (API serving the built web app, embedded
 * PostgreSQL), on its own port and data folder, wiped first so a crashed run never leaves a
 * stale database behind. `distDir` overrides the web build it serves (WEB_DIST_DIR).
 */
export async function startApiServer(options: {
  port: number;
  distDir?: string;
  timeoutMs?: number;
}): Promise<RunningServer> {
  const url = `http://localhost:${options.port}`;
  if (await ready(url))
    throw new Error(`port ${options.port} is already serving something: stop it or set BUDGETS_PORT`);
  const dataDir = `.data/budgets-${options.port}`;
  fs.rmSync(path.join(REPO_ROOT, dataDir), { recursive: true, force: true });
  const child: ChildProcess = spawn('npm', ['run', 'start', '-w', 'apps/api'], {
    cwd: REPO_ROOT,
    detached: true, // its own process group, so stop() ends npm, tsx and PostgreSQL together
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PORT: String(options.port),
      DATA_DIR: dataDir,
      PUBLIC_URL: url,
      RATE_LIMIT_MODE: 'off',
      LOG_LEVEL: 'warn',
      TZ: 'UTC',
      // The family's bookings are two to three weeks ahead: six weeks of sessions whatever the date, as in the
      // end-to-end stack.
      DEMO_SEASON_DAYS: '42',
      ...(options.distDir ? { WEB_DIST_DIR: options.distDir } : {}),
    },
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  let exited = false;
  child.on('exit', () => {
    exited = true;
  });

  const stop = async () => {
    if (exited || child.pid === undefined) return;
    const gone = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      return;
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, 15_000);
    await gone;
    clearTimeout(timer);
  };

  const deadline = Date.now() + (options.timeoutMs ?? 120_000);
  while (!(await ready(url))) {
    if (exited) throw new Error(`the API exited before it was ready:\n${stderr}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the API was not ready within ${(options.timeoutMs ?? 120_000) / 1000} s:\n${stderr}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { url, stop };
}
