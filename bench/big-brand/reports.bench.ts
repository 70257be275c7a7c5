/**
 * `npm run bench:reports`: issue 35's budget for the managers' reports (decision 0057): the sales
 * and occupancy reports p95 under 500 ms over a big brand (50 locations × 40 days, 150,000
 * bookings; big-brand.ts). One built API process (`npm run build -w apps/api` first) on its own
 * PostgreSQL; a manager's token signed by the API's own code. Each report, over the whole season
 * at every location (the worst a manager can ask) and over a week at one location, is asked
 * BENCH_REPORT_RUNS times (30) one after another, after three warm-up calls. Writes
 * bench/reports/reports.md.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { addDays } from '@kringle/contracts/dates';
import { createDb } from '../../apps/api/src/db/client';
import { startBenchDatabase } from '../drop-day/bench-database';
import { benchApiEnv, REPO_ROOT, startProcesses } from '../drop-day/processes';
import { appCheckToken } from '../drop-day/seed-data';
import { BIG_BRAND, loadBigBrand } from './big-brand';

const RUNS = Number(process.env.BENCH_REPORT_RUNS ?? 30);
const BUDGET_MS = 500;
const PORTS = { postgres: 4320, api: 4330 };
const API_DIR = path.join(REPO_ROOT, 'apps/api');
const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;

const { tmp, databaseUrl, db, endPool, jwtKey, idTokens, stop } = await startBenchDatabase('reports', PORTS.postgres);
try {
  const t0 = performance.now();
  const brand = await loadBigBrand(db);
  const counts = (await db.execute(sql`select (select count(*) from bookings)::int as bookings, (select count(*) from orders)::int as orders, (select count(*) from slots)::int as slots, (select count(*) from refunds)::int as refunds`)).rows[0]!;
  console.log(`big brand loaded in ${((performance.now() - t0) / 1000).toFixed(0)} s: ${JSON.stringify(counts)}, season ${brand.from} to ${brand.to}`);
  const [manager] = (await db.execute(sql`
    insert into users (email, password_hash, first_name, last_name, email_verified_at, is_staff, staff_role, mfa_enrolled_at)
    values ('bench-manager@kringle.test', 'not-a-real-hash', 'Bench', 'Manager', now(), true, 'manager', now()) returning id`)).rows;
  const { idToken } = await idTokens.issue({ id: manager!.id as string, email: 'bench-manager@kringle.test', emailVerified: true, isStaff: true, staffRole: 'manager' });
  await endPool();

  const env = benchApiEnv({ databaseUrl, jwtKey, publicUrl: `http://127.0.0.1:${PORTS.api}`, deadStripePort: 4398, deadSmtpPort: 4399 });
  const api = await startProcesses({ name: 'api', script: 'dist/start.mjs', cwd: API_DIR, ports: [PORTS.api], env, readyPath: '/api/v1/ready', logDir: tmp });
  try {
    const base = `http://127.0.0.1:${PORTS.api}/api/v1/staff/reports`;
    const headers = { authorization: `Bearer ${idToken}`, 'x-app-check': await appCheckToken(`http://127.0.0.1:${PORTS.api}`) };
    const season = `from=${brand.from}&to=${brand.to}`;
    const week = `from=${brand.from}&to=${addDays(brand.from, 6)}&locationId=${brand.locationId}`;
    const cases: [string, string][] = [
      ['sales by day, whole season, all locations', `/sales?${season}&groupBy=day`],
      ['sales by location, whole season, all locations', `/sales?${season}&groupBy=location`],
      ['sales by package, whole season, all locations', `/sales?${season}&groupBy=package`],
      ['sales CSV by day, whole season, all locations', `/sales.csv?${season}&groupBy=day`],
      ['occupancy, whole season, all locations', `/occupancy?${season}`],
      ['occupancy CSV, whole season, all locations', `/occupancy.csv?${season}`],
      ['sales by day, a week at one location', `/sales?${week}&groupBy=day`],
      ['occupancy, a week at one location', `/occupancy?${week}`],
    ];
    const rows: string[] = [];
    let failed = 0;
    for (const [name, url] of cases) {
      const times: number[] = [];
      let size = 0;
      for (let i = 0; i < RUNS + 3; i++) {
        const start = performance.now();
        const res = await fetch(`${base}${url}`, { headers });
        const body = await res.text();
        const took = performance.now() - start;
        if (res.status !== 200) throw new Error(`${url} answered ${res.status}: ${body.slice(0, 300)}`);
        if (i >= 3) times.push(took);
        size = body.length;
      }
      times.sort((a, b) => a - b);
      const p95 = quantile(times, 0.95);
      const pass = p95 < BUDGET_MS;
      if (!pass) failed++;
      const line = `| ${name} | ${quantile(times, 0.5).toFixed(0)} ms | **${p95.toFixed(0)} ms** | ${(size / 1024).toFixed(0)} KiB | ${pass ? 'pass' : 'FAIL'} |`;
      console.log(line);
      rows.push(line);
    }
    const check = createDb(databaseUrl, 1);
    const plan = (await check.db.execute(sql.raw(`explain (analyze, buffers off, timing off, summary on) select count(*) from orders o join bookings b on b.id = o.booking_id where o.paid_at is not null`))).rows.map((r) => Object.values(r)[0]).join('\n');
    await check.pool.end();
    const report = [
      `# Reports bench (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
      '',
      `\`npm run bench:reports\`: ${BIG_BRAND.locations} locations × ${BIG_BRAND.days} days, ${JSON.stringify(counts)}; ${RUNS} sequential calls per case after 3 warm-ups, one API process. Budget: p95 under ${BUDGET_MS} ms.`,
      '',
      '| case | p50 | p95 | answer | budget |',
      '|---|---|---|---|---|',
      ...rows,
      '',
      'Scan of every paid order joined to its booking, for scale:',
      '',
      '```',
      plan,
      '```',
      '',
    ].join('\n');
    fs.mkdirSync(path.join(REPO_ROOT, 'bench/reports'), { recursive: true });
    fs.writeFileSync(path.join(REPO_ROOT, 'bench/reports/reports.md'), report);
    console.log(failed ? `FAIL  ${failed} case(s) over ${BUDGET_MS} ms at p95` : `PASS  every report p95 under ${BUDGET_MS} ms`);
    process.exitCode = failed ? 1 : 0;
  } finally {
    await api.stop();
  }
} finally {
  await stop();
}
