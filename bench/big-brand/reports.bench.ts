/**
 * `npm run bench:reports`: issue 35's budgets over a big brand (50 locations × 40 days, 150,000
 * bookings; big-brand.ts): the sales and occupancy reports p95 under 500 ms (decisions 0057,
 * 0066), the run sheet p95 under 50 ms and the support desk's family search p95 under 100 ms.
 * One built API process (`node build.mjs` in apps/api first) on its own PostgreSQL; a manager's
 * token signed by the API's own code. Each report, over the whole season at every location (the
 * worst a manager can ask) and over a week at one location, each run sheet (a busy day at one
 * location) and each search is asked BENCH_REPORT_RUNS times (30) one after another, after three
 * warm-up calls. Writes bench/reports/reports.md with the load average before and after each case.
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
const REPORT_MS = 500;
const RUN_SHEET_MS = 50;
const SEARCH_MS = 100;
const SURNAMES = Array.from({ length: 100 }, (_, i) => (i === 0 ? 'Nguyen' : `Surname${String(i).padStart(3, '0')}`));
const load = (): string => fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0]!;
const PORTS = { postgres: 4320, api: 4330 };
const API_DIR = path.join(REPO_ROOT, 'apps/api');
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;

const { tmp, databaseUrl, db, endPool, jwtKey, idTokens, stop } = await startBenchDatabase('reports', PORTS.postgres);
try {
  const t0 = performance.now();
  const brand = await loadBigBrand(db);
  const counts = (
    await db.execute(
      sql`select (select count(*) from bookings)::int as bookings, (select count(*) from orders)::int as orders,
(select count(*) from slots)::int as slots, (select count(*) from refunds)::int as refunds`,
    )
  ).rows[0]!;
  console.log(
    `big brand loaded in ` +
      (`${((performance.now() - t0) / 1000).toFixed(0)} s: ${JSON.stringify(counts)}, season ${brand.from} to ` +
        `${brand.to}`),
  );
  // Phones for the families, so the search's phone arm has something to find among 20,000,
  // and a hundred surnames, so a common one matches 200 families, as a busy brand's "Nguyen" would.
  await db.execute(sql`
    update users set phone = '04' || lpad((10000000 + n)::text, 8, '0'), last_name =
    (${sql.param(SURNAMES)}::text[])[1 + n % ${SURNAMES.length}]
    from (select id, (substring(email from 'big-family-(\\d+)@'))::int as n from users where email like
    'big-family-%') f where users.id = f.id`);
  const busiest = (
    await db.execute(
      sql`select (s.start_at at time zone 'Australia/Sydney')::date::text as day from slots s where s.location_id =
${brand.locationId}::uuid and s.booking_id is not null group by 1 order by count(*) desc limit 1`,
    )
  ).rows[0]!.day as string;
  const [manager] = (
    await db.execute(sql`
    insert into users (email, password_hash, first_name, last_name, email_verified_at, is_staff, staff_role,
    mfa_enrolled_at)
    values ('bench-manager@kringle.test', 'not-a-real-hash', 'Bench', 'Manager', now(), true, 'manager', now())
    returning id`)
  ).rows;
  const { idToken } = await idTokens.issue({
    id: manager!.id as string,
    email: 'bench-manager@kringle.test',
    emailVerified: true,
    isStaff: true,
    staffRole: 'manager',
  });
  await endPool();

  const env = benchApiEnv({
    databaseUrl,
    jwtKey,
    publicUrl: `http://127.0.0.1:${PORTS.api}`,
    deadStripePort: 4398,
    deadSmtpPort: 4399,
  });
  const api = await startProcesses({
    name: 'api',
    script: 'dist/start.mjs',
    cwd: API_DIR,
    ports: [PORTS.api],
    env,
    readyPath: '/api/v1/ready',
    logDir: tmp,
  });
  try {
    const base = `http://127.0.0.1:${PORTS.api}/api/v1`;
    const headers = {
      authorization: `Bearer ${idToken}`,
      'x-app-check': await appCheckToken(`http://127.0.0.1:${PORTS.api}`),
    };
    const season = `from=${brand.from}&to=${brand.to}`;
    const week = `from=${brand.from}&to=${addDays(brand.from, 6)}&locationId=${brand.locationId}`;
    const reports = `/staff/reports`;
    const cases: [string, string, number][] = [
      ['sales by day, whole season, all locations', `${reports}/sales?${season}&groupBy=day`, REPORT_MS],
      ['sales by location, whole season, all locations', `${reports}/sales?${season}&groupBy=location`, REPORT_MS],
      ['sales by package, whole season, all locations', `${reports}/sales?${season}&groupBy=package`, REPORT_MS],
      ['sales CSV by day, whole season, all locations', `${reports}/sales.csv?${season}&groupBy=day`, REPORT_MS],
      ['occupancy, whole season, all locations', `${reports}/occupancy?${season}`, REPORT_MS],
      ['occupancy CSV, whole season, all locations', `${reports}/occupancy.csv?${season}`, REPORT_MS],
      ['sales by day, a week at one location', `${reports}/sales?${week}&groupBy=day`, REPORT_MS],
      ['occupancy, a week at one location', `${reports}/occupancy?${week}`, REPORT_MS],
      [
        `run sheet, the busiest day at one location (${busiest})`,
        `/staff/run-sheet?locationId=${brand.locationId}&date=${busiest}`,
        RUN_SHEET_MS,
      ],
      ['support search, part of an e-mail (one family)', `/staff/families?q=big-family-12345@`, SEARCH_MS],
      ['support search, a common surname (200 families match, 20 shown)', `/staff/families?q=Nguyen`, SEARCH_MS],
      [
        'support search, "Family" (every e-mail matches: 20,000 families, 20 shown)',
        `/staff/families?q=Family`,
        SEARCH_MS,
      ],
      ['support search, a phone as typed', `/staff/families?q=${encodeURIComponent('0410 012 345')}`, SEARCH_MS],
      ['support search, a booking reference', `/staff/families?q=BB-54321`, SEARCH_MS],
    ];
    const rows: string[] = [];
    let failed = 0;
    for (const [name, url, budget] of cases) {
      const loadBefore = load();
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
      const pass = p95 < budget;
      if (!pass) failed++;
      const line =
        `| ${name} | ${quantile(times, 0.5).toFixed(0)} ms | **${p95.toFixed(0)} ms** | ${budget} ms | ` +
        `${(size / 1024).toFixed(0)} KiB | ${loadBefore}–${load()} | ${pass ? 'pass' : 'FAIL'} |`;
      console.log(line);
      rows.push(line);
    }
    const check = createDb(databaseUrl, 1);
    // What the whole-season sales by day costs PostgreSQL now (decision 0066), for scale.
    const plan = (
      await check.db.execute(
        sql.raw(
          `explain (analyze, buffers off, timing off, summary on) select day, channel, count(*), sum(gross_cents), ` +
            `sum(gst_cents), sum(refunds_cents), sum(refunds_gst_cents) from sale_facts where day between ` +
            `'${brand.from}' and '${brand.to}' group by 1, 2`,
        ),
      )
    ).rows
      .map((r) => Object.values(r)[0])
      .join('\n');
    await check.pool.end();
    const report = [
      `# Reports bench (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
      '',
      `\`npm run bench:reports\`: ` +
        `${BIG_BRAND.locations} locations × ${BIG_BRAND.days} days, ${JSON.stringify(counts)}; ${RUNS} sequential ` +
        `calls per case after 3 warm-ups, one API process. The host's 1-minute load average before and after each ` +
        `case.`,
      '',
      '| case | p50 | p95 | budget (p95) | answer | load | |',
      '|---|---|---|---|---|---|---|',
      ...rows,
      '',
      'The whole-season sales by day in PostgreSQL (one statement over `sale_facts`):',
      '',
      '```',
      plan,
      '```',
      '',
    ].join('\n');
    fs.mkdirSync(path.join(REPO_ROOT, 'bench/reports'), { recursive: true });
    fs.writeFileSync(path.join(REPO_ROOT, 'bench/reports/reports.md'), report);
    console.log(failed ? `FAIL  ${failed} case(s) over budget at p95` : 'PASS  every case within its p95 budget');
    process.exitCode = failed ? 1 : 0;
  } finally {
    await api.stop();
  }
} finally {
  await stop();
}
