/**
 * `npm run bench:vouchers`: issue 52's proof at scale (decisions 0112, 0114). Two rounds of 1,000
 * checkouts through two API processes, each round spending its own 200 gift vouchers, five carts a
 * voucher, every cart priced with its voucher's whole balance and the five sent side by side so they
 * race. Zero overspend in both: each voucher pays exactly one checkout, the other four are refused
 * 409 VOUCHER_INVALID with nothing written, and no balance goes below zero.
 * - Paced: BENCH_VOUCHER_RATE (100) checkouts a second, open loop. Its p99 is the budget: under
 *   BENCH_CHECKOUT_P99_MS (100 ms, the drop-day's write budget).
 * - Burst: all 1,000 at once, the issue's "1,000 concurrent checkouts": overspend checked, latency
 *   reported (on two cores it is the queue's length, not the checkout's).
 *
 * The paced round follows a second of unmeasured checkouts at its rate (a server that has run the
 * checkout before). The data: the demo season (42 days), 2,100 families each holding its own session with a cart.
 * Built API processes (apps/api/build.mjs), jobs on, app check off (not what is measured). Writes
 * bench/reports/vouchers.md and exits non-zero when a budget fails.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { startBenchDatabase } from '../drop-day/bench-database';
import { benchApiEnv, REPO_ROOT, startProcesses } from '../drop-day/processes';
import { createCustomers, type BenchCustomer } from '../drop-day/seed-data';
import { prepareCarts, runRound, seedVouchers, type RoundResult } from './voucher-round';

const CHECKOUTS = Number(process.env.BENCH_VOUCHER_CHECKOUTS ?? 1000);
const VOUCHERS = Number(process.env.BENCH_VOUCHERS ?? 200);
const P99_MS = Number(process.env.BENCH_CHECKOUT_P99_MS ?? 100);
const RATE = Number(process.env.BENCH_VOUCHER_RATE ?? 100);
const PORTS = { postgres: 4323, api: [4341, 4342], smtp: 4398 };
// One second of checkouts at the rate first, unmeasured.
const WARM_UP = Math.ceil(RATE / 5) * 5;
const SESSIONS = 2 * CHECKOUTS + WARM_UP;
const API_DIR = path.join(REPO_ROOT, 'apps/api');

execFileSync(process.execPath, ['build.mjs'], { cwd: API_DIR, stdio: 'inherit' });
const { tmp, databaseUrl, db, endPool, jwtKey, idTokens, stop } = await startBenchDatabase('vouchers', PORTS.postgres);
try {
  const production = benchApiEnv({
    databaseUrl,
    jwtKey,
    publicUrl: `http://127.0.0.1:${PORTS.api[0]}`,
    deadStripePort: 1,
    deadSmtpPort: PORTS.smtp,
  });
  const env = { ...production, APP_CHECK_MODE: 'off', DATABASE_POOL_SIZE: '20' };
  const key = production.VOUCHER_CODE_KEY!;
  const row = (await db.execute(sql`select id, price_cents from packages where slug = 'classic-print'`)).rows[0]!;
  const pkg = { id: row.id as string, priceCents: Number(row.price_cents) };
  // One booking's price and less than $5 more: a voucher never pays two.
  const value = Math.ceil(pkg.priceCents / 500) * 500;
  const slots = (
    await db.execute(sql`select id from slots where kind = 'session' and start_at > now() + interval '1 day'
      order by start_at limit ${SESSIONS}`)
  ).rows.map((r) => r.id as string);
  if (slots.length < SESSIONS) throw new Error(`only ${slots.length} sessions for ${SESSIONS} checkouts`);
  const families = await createCustomers(db, idTokens, SESSIONS, 'voucher');
  // The warm-up round (unmeasured), then the paced one, then the burst.
  const sizes = [[WARM_UP, WARM_UP / 5], ...Array.from({ length: 2 }, () => [CHECKOUTS, VOUCHERS])];
  const data = [];
  let from = 0;
  for (const [checkouts, vouchers] of sizes) {
    const to = from + checkouts!;
    data.push({
      families: families.slice(from, to),
      slots: slots.slice(from, to),
      vouchers: await seedVouchers(db, key, vouchers!, value),
    });
    from = to;
  }
  await endPool();

  const api = await startProcesses({
    name: 'api',
    script: 'dist/start.mjs',
    cwd: API_DIR,
    ports: PORTS.api,
    env,
    readyPath: '/api/v1/ready',
    logDir: tmp,
  });
  try {
    const call = async (i: number, who: BenchCustomer, url: string, body: object) => {
      const started = performance.now();
      const res = await fetch(`http://${api.addresses[i % api.addresses.length]}/api/v1${url}`, {
        method: 'POST',
        headers: { authorization: who.authorization, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return {
        status: res.status,
        body: (await res.json()) as Record<string, unknown>,
        ms: performance.now() - started,
      };
    };
    const carts = [];
    for (const d of data) carts.push(await prepareCarts(call, d, key, pkg));
    const loadAtStart = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const opts = { apiPids: api.pids, databaseUrl, priceCents: pkg.priceCents };
    // A server that has served checkouts before: the first ones a process runs compile its code.
    await runRound(call, carts[0]!, { ...opts, rate: RATE });
    const paced = await runRound(call, carts[1]!, { ...opts, rate: RATE });
    await new Promise((r) => setTimeout(r, 2000));
    const burst = await runRound(call, carts[2]!, { ...opts, rate: 0 });

    const ms = (v: number) => `${v.toFixed(0)} ms`;
    const row = (name: string, r: RoundResult, budget: string) =>
      `| ${name} | ${r.noOverspend ? 'none' : '**OVERSPENT**'}: ${r.ledger.orders} orders, ${r.ledger.confirmed} ` +
      `confirmed, lowest balance ${r.ledger.lowest} cents, answers ${JSON.stringify(r.statuses)} | ` +
      `${ms(r.p50)} / **${ms(r.p99)}** / ${ms(r.max)} | ${ms(r.wallMs)} | ` +
      `${r.cpuMs.api.toFixed(2)} / ${r.cpuMs.postgres.toFixed(2)} ms | ${budget} |`;
    const fast = paced.p99 < P99_MS;
    const report = [
      `# Gift voucher bench (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
      '',
      `\`npm run bench:vouchers\`: two rounds of ${CHECKOUTS.toLocaleString('en-AU')} checkouts through two API ` +
        `processes, each spending ${VOUCHERS} gift vouchers (${CHECKOUTS / VOUCHERS} carts each, every cart priced ` +
        `with its voucher's whole balance, sent side by side). Paced: ${RATE} checkouts a second, open loop, ` +
        `latency from each one's due time; budget p99 under ${P99_MS} ms (decision 0114). Burst: all at once, ` +
        `zero overspend, latency reported. Load average (1, 5, 15 min) at the start: ${loadAtStart}.`,
      '',
      '| round | overspend | checkout p50 / p99 / max | all answered in | CPU per checkout, API / PostgreSQL | |',
      '|---|---|---|---|---|---|',
      row(`paced, ${RATE}/s`, paced, paced.noOverspend && fast ? 'pass' : 'FAIL'),
      row('burst, all at once', burst, burst.noOverspend ? 'pass (latency reported)' : 'FAIL'),
      '',
    ].join('\n');
    console.log(report);
    fs.mkdirSync(path.join(REPO_ROOT, 'bench/reports'), { recursive: true });
    fs.writeFileSync(path.join(REPO_ROOT, 'bench/reports/vouchers.md'), report);
    process.exitCode = paced.noOverspend && burst.noOverspend && fast ? 0 : 1;
  } finally {
    await api.stop();
  }
} finally {
  await stop();
}
