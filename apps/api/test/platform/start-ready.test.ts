import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { freePort } from '../../src/dev/free-port';

const API_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const TSX = path.resolve(API_DIR, '../../node_modules/.bin/tsx');

let child: ChildProcess | null = null;
let dataDir: string | null = null;

afterAll(async () => {
  if (child && child.exitCode === null && child.signalCode === null) {
    const exited = new Promise<void>((resolve) => child!.once('exit', () => resolve()));
    child.kill('SIGTERM'); // start.ts stops its embedded PostgreSQL on the way out
    await exited;
  }
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
}, 60_000);

/**
 * `npm start` on a fresh data folder, polled as a load balancer or Playwright's webServer would:
 * the first 200 from /health must already mean a family can sign in and see a season to book.
 * Before the demo data moved ahead of listen(), /health and /ready answered while the demo
 * accounts and season were still loading, and this sign-in failed.
 */
it('answers /health and /ready, and prints the banner, only once the demo accounts and season are loaded', async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kringle-start-ready-'));
  fs.chmodSync(dataDir, 0o777);
  const port = await freePort();
  // The metrics listener (decision 0088) on a port of its own; the API tests' config turns it off.
  const metricsPort = await freePort();
  const base = `http://127.0.0.1:${port}/api/v1`;
  let output = '';
  let bannerAt = 0;
  child = spawn(TSX, ['src/start.ts'], {
    cwd: API_DIR,
    // No LOG_LEVEL or LOG_REQUESTS: the embedded default's own (issue 37 item 11). Two weeks of the
    // demo season: its own ends on Christmas Eve, and on that evening nothing is left to book.
    env: {
      ...withoutLogSettings(process.env),
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      APP_CHECK_MODE: 'off',
      RATE_LIMIT_MODE: 'off',
      SERVE_WEB: 'false',
      DEMO_SEASON_DAYS: '14',
      METRICS_ENABLED: 'true',
      METRICS_PORT: String(metricsPort),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const collect = (d: Buffer) => {
    output += d.toString();
    if (!bannerAt && output.includes('Kringle is running at')) bannerAt = Date.now();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);

  // Poll often enough to land inside a loading window of well under a second.
  const deadline = Date.now() + 150_000;
  let healthyAt = 0;
  while (!healthyAt) {
    if (Date.now() > deadline || child.exitCode !== null) throw new Error(`npm start never became healthy:\n${output}`);
    try {
      if ((await fetch(`${base}/health`)).ok) healthyAt = Date.now();
    } catch {
      await new Promise((r) => setTimeout(r, 20)); // not listening yet
    }
  }
  expect((await fetch(`${base}/ready`)).status).toBe(200);

  const signIn = await fetch(`${base}/auth/sign-in`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: 'demo@kringle.test', password: 'HoHoHo-2026!' }),
  });
  expect(signIn.status, await signIn.clone().text()).toBe(200);
  const headers = { Authorization: `Bearer ${((await signIn.json()) as { idToken: string }).idToken}` };
  const locations = (await (await fetch(`${base}/common/locations`, { headers })).json()) as {
    items: { id: string; slotTypes: { id: string }[] }[];
  };
  expect(locations.items).toHaveLength(3);
  const first = locations.items[0]!;
  const dates = (await (
    await fetch(`${base}/booking-slot/${first.id}/available-dates?slotTypeId=${first.slotTypes[0]!.id}`, { headers })
  ).json()) as {
    items: { available: number }[];
  };
  expect(dates.items.some((d) => d.available > 0)).toBe(true);

  // The banner says the same thing at the same moment: right after listen(), never before it.
  await expect.poll(() => bannerAt, { timeout: 5_000 }).toBeGreaterThan(0);
  expect(bannerAt - healthyAt).toBeLessThan(5_000);
  // The terminal stays readable: the embedded default writes no line per request (the banner, with
  // the demo accounts and the mailbox, does not scroll away); LOG_REQUESTS=true asks for them.
  const after = output.slice(output.indexOf('Kringle is running at'));
  expect(after).toContain('A line per request: LOG_REQUESTS=true npm start.');
  expect(after).not.toMatch(/\/api\/v1\/(health|ready|auth\/sign-in|common\/locations)/);
  expect(after).not.toMatch(/"reqId"|"responseTime"/);
  // npm start says where the metrics are, and they are there, not on the public port.
  expect(after).toContain(`Metrics:    http://127.0.0.1:${metricsPort}/metrics`);
  expect(await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text()).toContain(
    '# TYPE kringle_holds_total counter',
  );
  expect((await fetch(`http://127.0.0.1:${port}/metrics`)).status).toBe(404);
}, 180_000);

const withoutLogSettings = (env: NodeJS.ProcessEnv) =>
  Object.fromEntries(Object.entries(env).filter(([key]) => key !== 'LOG_LEVEL' && key !== 'LOG_REQUESTS'));
