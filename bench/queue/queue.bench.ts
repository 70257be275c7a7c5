/**
 * `npm run bench:queue`: issue 40's waiting-room load test, against the contract of
 * `POST /api/v1/queue/{locationId}`, `GET …/live` (SSE `event: ticket`) and `GET …/fairness`.
 *
 * One built API process (jobs on) on its own PostgreSQL. A location's sales open LEAD_S from now
 * with its line open; BENCH_QUEUE_FAMILIES families (20,000 for the issue; 500 is a quick look)
 * join in the time before the opening, spread evenly. Measured: join p50/p99 (budget p99 < 50 ms),
 * the draw's distance from the instant (budget ≤ 1 s), the share of open live streams told their
 * drawn place within 2 s of the instant (budget 99%), resident memory per waiting family (and per
 * open stream), that no family was admitted twice and admissions stayed within 1.5 × free, and the
 * Spearman rank correlation of drawn position against join order (≈ 0: independent).
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { createDb } from '../../apps/api/src/db/client';
import { startBenchDatabase } from '../drop-day/bench-database';
import { benchApiEnv, REPO_ROOT, startProcesses } from '../drop-day/processes';
import { appCheckToken, createCustomers } from '../drop-day/seed-data';

const FAMILIES = Number(process.env.BENCH_QUEUE_FAMILIES ?? 20_000);
/** Streams opened (each a family watching its ticket); capped by the per-account caps being off here. */
const STREAMS = Math.min(FAMILIES, Number(process.env.BENCH_QUEUE_STREAMS ?? 2000));
const LEAD_S = Number(process.env.BENCH_QUEUE_LEAD_S ?? (FAMILIES > 2000 ? 75 : 25));
const CONCURRENCY = 64;
const PORTS = { postgres: 4300, api: 4310 };
const API_DIR = path.join(REPO_ROOT, 'apps/api');
const rssKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);
const quantile = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? NaN;

interface Stream {
  socket: net.Socket;
  /** When a ticket with a place (not before_open) arrived (Date.now()). */
  placedAt: number | null;
}

function openStream(port: number, pathAndQuery: string, headers: Record<string, string>): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const stream: Stream = { socket, placedAt: null };
    let head = '';
    let open = false;
    socket.setEncoding('utf8');
    socket.on('connect', () => {
      const lines = Object.entries({ host: `127.0.0.1:${port}`, accept: 'text/event-stream', ...headers }).map(
        ([k, v]) => `${k}: ${v}`,
      );
      socket.write(`GET ${pathAndQuery} HTTP/1.1\r\n${lines.join('\r\n')}\r\n\r\n`);
    });
    socket.on('data', (chunk: string) => {
      if (!open) {
        head += chunk;
        const end = head.indexOf('\r\n\r\n');
        if (end === -1) return;
        if (!/^HTTP\/1\.1 200/.test(head)) {
          socket.destroy();
          return reject(new Error(`the live stream answered: ${head.slice(0, 300)}`));
        }
        open = true;
        resolve(stream);
        chunk = head.slice(end + 4);
      }
      if (stream.placedAt === null && /event: ticket\ndata: [^\n]*"status":"(waiting|admitted|sold_out)"/.test(chunk))
        stream.placedAt = Date.now();
    });
    socket.on('error', reject);
  });
}

/** Spearman's rank correlation of two equally long lists of distinct ranks. */
function spearman(a: number[], b: number[]): number {
  const rank = (xs: number[]) => {
    const order = xs.map((x, i) => [x, i] as const).sort((p, q) => p[0] - q[0]);
    const r = new Array<number>(xs.length);
    order.forEach(([, i], k) => (r[i] = k + 1));
    return r;
  };
  const ra = rank(a);
  const rb = rank(b);
  const n = a.length;
  const d2 = ra.reduce((sum, r, i) => sum + (r - rb[i]!) ** 2, 0);
  return 1 - (6 * d2) / (n * (n * n - 1));
}

const { tmp, databaseUrl, db, endPool, season, jwtKey, idTokens, stop } = await startBenchDatabase(
  'queue',
  PORTS.postgres,
);
const streams: Stream[] = [];
try {
  const target = season.targets[0]!;
  const customers = await createCustomers(db, idTokens, FAMILIES, 'queue');
  const opensAt = new Date(Math.ceil(Date.now() / 1000) * 1000 + LEAD_S * 1000);
  await db.execute(
    sql`update locations set sales_open_at =
${opensAt.toISOString()}::timestamptz, queue_opens_minutes_before = 30 where id = ${target.locationId}::uuid`,
  );
  const free = (
    await db.execute(
      sql`select count(*)::int as n from slots where location_id =
${target.locationId}::uuid and kind = 'session' and not blocked and start_at > now() + interval '1 hour'`,
    )
  ).rows[0]!.n as number;
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
    const base = `http://127.0.0.1:${PORTS.api}`;
    const appCheck = await appCheckToken(base);
    const pid = api.pids[0]!;
    const url = `${base}/api/v1/queue/${target.locationId}`;
    const headersOf = (c: (typeof customers)[number]) => ({ authorization: c.authorization, 'x-app-check': appCheck });
    // The line opens on the job's next pass; the first join opens it too.
    const rssBefore = rssKiB(pid);
    const joinWindowMs = opensAt.getTime() - Date.now() - 5000;
    console.log(
      `${FAMILIES} families join over ` +
        `${(joinWindowMs / 1000).toFixed(0)} s before the opening at ${opensAt.toISOString()} (${free} sessions free)`,
    );
    const latencies: number[] = [];
    /** Slow joins (over 50 ms) by when they were sent, seconds from the first: where the tail comes from. */
    const slow: number[] = [];
    const started = Date.now();
    let next = 0;
    const worker = async () => {
      while (next < customers.length) {
        const i = next++;
        // Even arrivals: family i goes at its share of the window.
        const due = started + (i / customers.length) * joinWindowMs;
        if (due > Date.now()) await new Promise((r) => setTimeout(r, due - Date.now()));
        const t0 = performance.now();
        const res = await fetch(url, { method: 'POST', headers: headersOf(customers[i]!) });
        const took = performance.now() - t0;
        latencies.push(took);
        if (took > 50) slow.push(Math.round((Date.now() - started) / 100) / 10);
        if (res.status !== 200) throw new Error(`join answered ${res.status}: ${await res.text()}`);
        await res.arrayBuffer();
      }
    };
    await Promise.all(Array.from({ length: CONCURRENCY }, worker));
    latencies.sort((a, b) => a - b);
    const rssJoined = rssKiB(pid);
    for (let i = 0; i < STREAMS; i += 200) {
      const batch = customers
        .slice(i, Math.min(STREAMS, i + 200))
        .map((c) => openStream(PORTS.api, `/api/v1/queue/${target.locationId}/live`, headersOf(c)));
      streams.push(...(await Promise.all(batch)));
    }
    const rssStreams = rssKiB(pid);
    console.log(`${slow.length} joins over 50 ms, sent at ${[...new Set(slow)].slice(0, 12).join(', ')} s`);
    console.log(
      `join: p50 ${quantile(latencies, 0.5).toFixed(1)} ms, p99 ${quantile(latencies, 0.99).toFixed(1)} ms, max ` +
        `${latencies.at(-1)!.toFixed(1)} ms`,
    );
    console.log(
      `memory: ${(((rssJoined - rssBefore) * 1024) / FAMILIES).toFixed(0)} B per waiting family (RSS ` +
        (`${Math.round(rssJoined / 1024)} MiB), ` +
          `${(((rssStreams - rssJoined) * 1024) / Math.max(1, streams.length) / 1024).toFixed(1)} KiB per open stream`),
    );

    await new Promise((r) => setTimeout(r, Math.max(0, opensAt.getTime() - Date.now()) + 5000));
    const check = createDb(databaseUrl, 1);
    try {
      const line = (
        await check.db.execute(sql`select drawn_at from queue_lines where location_id = ${target.locationId}::uuid`)
      ).rows[0]!;
      const drawnAt = new Date(line.drawn_at as string);
      const drawLagMs = drawnAt.getTime() - opensAt.getTime();
      const told =
        streams.filter((s) => s.placedAt !== null && s.placedAt - opensAt.getTime() <= 2000).length /
        Math.max(1, streams.length);
      const rows = (
        await check.db.execute(
          sql`select user_id, position, seq, admitted_at from queue_tickets where location_id =
${target.locationId}::uuid and in_draw order by seq`,
        )
      ).rows;
      const users = new Set(rows.map((r) => r.user_id));
      const admitted = rows.filter((r) => r.admitted_at !== null).length;
      const rho = spearman(
        rows.map((r) => Number(r.seq)),
        rows.map((r) => Number(r.position)),
      );
      console.log(
        `draw: ${drawLagMs} ms after the instant; ` +
          `${rows.length} entrants; ${(told * 100).toFixed(1)}% of ${streams.length} streams told their place within ` +
          `2 s`,
      );
      console.log(
        `admission: ${admitted} admitted (≤ ${Math.floor(1.5 * free)}), ${rows.length - users.size} families with ` +
          `two places; rank correlation position vs join order ${rho.toFixed(3)}`,
      );
      const budgets = [
        [quantile(latencies, 0.99) < 50, 'join p99 under 50 ms'],
        [drawLagMs >= 0 && drawLagMs <= 1000, 'the draw within 1 s of the instant'],
        [told >= 0.99, '99% of position updates within 2 s'],
        [
          rows.length === users.size && admitted <= Math.floor(1.5 * free),
          'no family admitted twice, admissions within 1.5 × free',
        ],
        [Math.abs(rho) < 0.1, 'positions independent of join time (|rho| < 0.1)'],
      ] as const;
      for (const [ok, what] of budgets) console.log(`${ok ? 'PASS' : 'FAIL'}  ${what}`);
    } finally {
      await check.pool.end();
    }
  } finally {
    for (const s of streams) s.socket.destroy();
    await api.stop();
  }
} finally {
  await stop();
}
