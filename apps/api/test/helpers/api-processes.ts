import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../src/dev/free-port';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.resolve(API_DIR, '../../node_modules/.bin/tsx');

export interface ApiProcesses {
  urls: string[];
  stop(): Promise<void>;
  /** SIGKILLs process `index` (tsx and the node process it runs): a crash, with no graceful shutdown. */
  kill(index: number): Promise<void>;
  /** Sends process `index` a signal, without waiting (tsx relays it to the API it runs). */
  signal(index: number, signal: NodeJS.Signals): void;
}

/**
 * Starts N real API processes (the production entry point) on one database, like N instances behind
 * a load balancer: src/start.ts under tsx, or `entry`, a build (relative to apps/api), on this Node.
 */
export async function startApiProcesses(
  count: number,
  env: Record<string, string>,
  options: { entry?: string } = {},
): Promise<ApiProcesses> {
  const children: ChildProcess[] = [];
  const urls: string[] = [];
  const spawnOne = async (i: number) => {
    const port = await freePort();
    const [command, args] = options.entry
      ? [process.execPath, ['--enable-source-maps', options.entry]]
      : [TSX, ['src/start.ts']];
    const child = spawn(command, args, {
      cwd: API_DIR,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        PORT: String(port),
        HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        APP_CHECK_MODE: 'off',
        RATE_LIMIT_MODE: 'off',
        SERVE_WEB: 'false',
        DATABASE_POOL_SIZE: '10',
        // Instances behind a load balancer (TRUST_PROXY there turns the per-address cap off): the
        // tests' one client address stands for many families.
        MAX_CONNECTIONS_PER_ADDRESS: '0',
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.on('exit', (code, signal) => {
      // 143 = stopped by our own SIGTERM through tsx.
      if (code && code !== 143 && !signal) console.error(`API process on ${port} exited with ${code}: ${output}`);
    });
    children[i] = child;
    urls[i] = `http://127.0.0.1:${port}`;
    return { exited, output: () => output };
  };
  /**
   * The free port is the OS's to give again until the process binds it, seconds later on a busy
   * host (another test's client may take it as its ephemeral port): a start that loses its port
   * to EADDRINUSE is tried again on another one, twice at most.
   */
  const startOne = async (i: number) => {
    for (let attempt = 1; ; attempt++) {
      const started = await spawnOne(i);
      const gaveUp = new AbortController();
      const outcome = await Promise.race([
        waitForHealth(urls[i]!, gaveUp.signal).then(
          () => 'ready' as const,
          () => 'not ready' as const,
        ),
        started.exited.then(() => 'exited' as const),
      ]);
      gaveUp.abort();
      if (outcome === 'ready') return;
      if (attempt >= 3 || !started.output().includes('EADDRINUSE'))
        throw new Error(`API at ${urls[i]} did not become ready`);
    }
  };
  const stopAll = () =>
    Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.kill('SIGTERM');
          }),
      ),
    ).then(() => {});
  try {
    await Promise.all(Array.from({ length: count }, (_, i) => startOne(i)));
  } catch (error) {
    // A process that never got ready must not outlive the test that started it.
    await stopAll();
    throw error;
  }
  return {
    urls,
    async kill(index) {
      const child = children[index]!;
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      // tsx runs the API in a child node process: kill that one first, by its parent's pid.
      try {
        execFileSync('pkill', ['-KILL', '-P', String(child.pid)]);
      } catch {
        // No child (yet): killing tsx is enough.
      }
      child.kill('SIGKILL');
      await exited;
    },
    signal(index, signal) {
      children[index]!.kill(signal);
    },
    stop: stopAll,
  };
}

/** Generous: on two busy cores, three processes compiling TypeScript at once can take a while. */
async function waitForHealth(url: string, stop: AbortSignal, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline && !stop.aborted) {
    try {
      if ((await fetch(`${url}/api/v1/ready`)).ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`API at ${url} did not become ready`);
}
