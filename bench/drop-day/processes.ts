import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from './nginx-balancer';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * The Node flags the built API runs with, read from apps/api's `start` script, so each bench runs
 * it as `npm start` and production do (decision 0077: the young generation's size is one of them).
 */
export const API_NODE_FLAGS: string[] = (() => {
  const start = (
    JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'apps/api/package.json'), 'utf8')) as { scripts: { start: string } }
  ).scripts.start;
  const flags = /\bnode ((?:--\S+ )*)dist\/start\.mjs/.exec(start)?.[1];
  if (flags === undefined) throw new Error(`apps/api's start script no longer runs dist/start.mjs with node: ${start}`);
  return flags.split(' ').filter(Boolean);
})();

/** The API's environment in the benches: production mode, nothing that leaves this machine. */
export function benchApiEnv(opts: {
  databaseUrl: string;
  jwtKey: string;
  publicUrl: string;
  deadStripePort: number;
  deadSmtpPort: number;
}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    DATABASE_URL: opts.databaseUrl,
    JWT_PRIVATE_KEY: opts.jwtKey,
    APP_CHECK_SECRET: 'drop-day-bench-app-check-secret-0123456789',
    APP_CHECK_MODE: 'enforce',
    // Every request comes from one IP here; per-IP limits would measure the limiter, not the app.
    RATE_LIMIT_MODE: 'off',
    TRUST_PROXY: 'true',
    SERVE_WEB: 'false',
    JOBS_ENABLED: 'true',
    PUBLIC_URL: opts.publicUrl,
    // Configured but never reached: the benches do not pay or send mail (mail stays queued).
    STRIPE_SECRET_KEY: 'sk_test_drop_day_bench',
    STRIPE_PUBLISHABLE_KEY: 'pk_test_drop_day_bench',
    STRIPE_WEBHOOK_SECRET: 'whsec_drop_day_bench',
    STRIPE_API_URL: `http://127.0.0.1:${opts.deadStripePort}`,
    SMTP_URL: `smtp://127.0.0.1:${opts.deadSmtpPort}`,
    // Production requires a real one (config); this is the ATO's own ABN, valid and harmless here.
    SELLER_ABN: '51 824 753 556',
    VOUCHER_CODE_KEY: 'a-production-voucher-code-key-of-32-chars-or-more',
  };
}

/**
 * BENCH_PROFILE_DIR=<folder>: V8 CPU profiles of the servers, for finding where the time goes (Node refuses these in
 * NODE_OPTIONS).
 */
function profileFlags(): string[] {
  const dir = process.env.BENCH_PROFILE_DIR;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`] : [];
}

export interface ProcessGroup {
  addresses: string[];
  /** For the load generator to read their CPU time (LoadSpec.cpuPids). */
  pids: number[];
  stop(): Promise<void>;
}

/**
 * Starts one process per port and waits until each answers `readyPath`. Used for the real API (its
 * build, as `npm start` and production run it) and for the hello-world ceiling, so both sit behind
 * nginx the same way. `.ts` scripts run through tsx, built `.mjs` ones on node with source maps.
 */
export async function startProcesses(opts: {
  name: string;
  script: string;
  cwd: string;
  ports: number[];
  env: Record<string, string>;
  readyPath: string;
  logDir: string;
  /** V8 and Node flags before the script (the direct scenario's second ceiling sets its young generation). */
  nodeFlags?: string[];
}): Promise<ProcessGroup> {
  const children: ChildProcess[] = [];
  const logs: string[] = [];
  for (const [i, port] of opts.ports.entries()) {
    // Logs go straight to a file, as they would to a log collector: the bench process must not
    // spend its CPU reading them while it measures.
    logs[i] = path.join(opts.logDir, `${opts.name}-${port}.log`);
    const fd = fs.openSync(logs[i], 'a');
    // tsx as a loader, not its CLI (which runs the script in a child): the pid must be the server's own.
    const args = [
      ...profileFlags(),
      ...(opts.nodeFlags ?? []),
      ...(opts.script.endsWith('.ts') ? ['--import', 'tsx'] : API_NODE_FLAGS),
      opts.script,
    ];
    const child = spawn(process.execPath, args, {
      cwd: opts.cwd,
      env: { ...process.env, ...opts.env, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', fd, fd],
    });
    fs.closeSync(fd);
    children.push(child);
  }
  const tail = (i: number) => fs.readFileSync(logs[i]!, 'utf8').slice(-3000);
  const group: ProcessGroup = {
    addresses: opts.ports.map((p) => `127.0.0.1:${p}`),
    pids: children.map((c) => c.pid!),
    stop: () =>
      Promise.all(
        children.map(
          (c) =>
            new Promise<void>((resolve) => {
              if (c.exitCode !== null || c.signalCode !== null) return resolve();
              const force = setTimeout(() => c.kill('SIGKILL'), 12_000);
              c.once('exit', () => {
                clearTimeout(force);
                resolve();
              });
              c.kill('SIGTERM');
            }),
        ),
      ).then(() => {}),
  };
  try {
    await Promise.all(
      opts.ports.map((port, i) =>
        waitFor(
          async () => {
            const child = children[i]!;
            if (child.exitCode !== null)
              throw new Error(`${opts.name} on ${port} exited with ${child.exitCode}:\n${tail(i)}`);
            return (await fetch(`http://127.0.0.1:${port}${opts.readyPath}`).catch(() => null))?.ok === true;
          },
          120_000,
          `${opts.name} on ${port}`,
        ),
      ),
    );
  } catch (err) {
    await group.stop();
    throw err;
  }
  return group;
}

/** The two builds an A/B compares (bench:ab, bench:storm-ab): one process each, on the same database. */
export async function startAbSides(opts: {
  databaseUrl: string;
  jwtKey: string;
  logDir: string;
  scripts: { before: string; after: string };
  ports: { before: number; after: number };
  /** Variables only the before side gets (a spread that swaps which side has a setting). */
  beforeEnv?: Record<string, string>;
  /** Variables only the after side gets (one build, two settings: e.g. RATE_LIMIT_MODE=on). */
  afterEnv?: Record<string, string>;
  /** Node flags only the after side gets (e.g. a young-generation size). */
  afterNodeFlags?: string[];
}): Promise<Record<'before' | 'after', ProcessGroup>> {
  const env = benchApiEnv({
    databaseUrl: opts.databaseUrl,
    jwtKey: opts.jwtKey,
    publicUrl: `http://127.0.0.1:${opts.ports.before}`,
    deadStripePort: 4198,
    deadSmtpPort: 4199,
  });
  const start = (side: 'before' | 'after') =>
    startProcesses({
      name: side,
      script: opts.scripts[side],
      cwd: path.join(REPO_ROOT, 'apps/api'),
      ports: [opts.ports[side]],
      // Each side its own metrics port (decision 0088), so both serve theirs as production would.
      env: {
        ...env,
        METRICS_PORT: String(opts.ports[side] + 1000),
        ...(side === 'after' ? opts.afterEnv : opts.beforeEnv),
      },
      readyPath: '/api/v1/ready',
      logDir: opts.logDir,
      nodeFlags: side === 'after' ? opts.afterNodeFlags : [],
    });
  const before = await start('before');
  return {
    before,
    after: await start('after').catch(async (err: unknown) => {
      await before.stop();
      throw err;
    }),
  };
}
