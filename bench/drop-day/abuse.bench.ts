/**
 * `npm run bench:abuse` (issue 36): while one address keeps BENCH_SLOW_SOCKETS half-sent requests
 * (a request line, `Content-Length: 60000` and one byte, to a route without app check) and
 * BENCH_STREAM_ATTEMPTS live-stream attempts of one account going (abuse-flood.ts: each socket the
 * server closes is tried again after BENCH_REATTEMPT_MS), a family's available-slots reads from
 * another address keep their p99 budget (25 ms, the direct budget of drop-day.budgets.ts),
 * measured at a steady rate before the flood and while it runs. Also checked: the server never
 * holds more of the attacker's sockets than MAX_CONNECTIONS_PER_ADDRESS (128) nor more of its
 * streams than LIVE_STREAMS_PER_ACCOUNT (5). Writes bench/reports/abuse.md and .json.
 *
 * One built API process, no proxy (TRUST_PROXY=false, so the per-address socket cap applies), rate
 * limits on (the live-stream caps). The attacker is 127.0.0.2 and the family 127.0.0.1: Linux
 * routes all of 127/8 to loopback, so the two are different addresses to the API.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFlood, tally, type FloodResult } from './abuse-flood';
import { startBenchDatabase } from './bench-database';
import { runLoad, type LoadResult } from './load-generator';
import { benchApiEnv, REPO_ROOT, startProcesses } from './processes';
import { describeMachine, type Budget } from './report';
import { appCheckToken, availableSlotsReads, createCustomers } from './seed-data';

const SLOW = Number(process.env.BENCH_SLOW_SOCKETS ?? 2000);
const STREAMS = Number(process.env.BENCH_STREAM_ATTEMPTS ?? 2000);
const PROBE_SECONDS = Number(process.env.BENCH_PROBE_SECONDS ?? 10);
const REATTEMPT_MS = Number(process.env.BENCH_REATTEMPT_MS ?? 1000);
const PROBE_RATE = 200;
const P99_BUDGET_MS = 25;
const SOCKET_CAP = 128;
const STREAM_CAP = 5;
const ATTACKER = '127.0.0.2';
const PORTS = { postgres: 4130, api: 4140 };
const API_DIR = path.join(REPO_ROOT, 'apps/api');
const load1 = () => os.loadavg()[0]!;
const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

const loadAtStart = load1();
const { tmp, databaseUrl, db, endPool, season, jwtKey, idTokens, stop } = await startBenchDatabase(
  'abuse',
  PORTS.postgres,
);
try {
  const customers = await createCustomers(db, idTokens, 51, 'abuse');
  const postgres = String((await db.execute('show server_version')).rows[0]!.server_version);
  await endPool();
  const attacker = customers.pop()!;
  execFileSync(process.execPath, ['build.mjs'], { cwd: API_DIR, stdio: 'inherit' });
  const env = {
    ...benchApiEnv({
      databaseUrl,
      jwtKey,
      publicUrl: `http://127.0.0.1:${PORTS.api}`,
      deadStripePort: 4198,
      deadSmtpPort: 4199,
    }),
    TRUST_PROXY: 'false',
    RATE_LIMIT_MODE: 'on',
  };
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
    const reads = availableSlotsReads(customers, season.targets, appCheck);
    const probe = () =>
      runLoad(
        {
          url: base,
          connections: 10,
          overallRate: PROBE_RATE,
          duration: PROBE_SECONDS,
          requests: reads,
          warmUpPath: '/api/v1/health',
        },
        tmp,
      );
    const before = await probe();
    log(`before: p99 ${before.latencyMs.p99} ms at ${PROBE_RATE}/s; load average ${load1().toFixed(2)}`);

    const live = `/api/v1/booking-slot/${season.targets[0]!.locationId}/live`;
    const flood = startFlood({
      port: PORTS.api,
      attacker: ATTACKER,
      reattemptMs: REATTEMPT_MS,
      slow: {
        count: SLOW,
        settleMs: 300,
        payload:
          'POST /api/v1/app-check/exchange HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ' +
          '60000\r\n\r\n{',
      },
      streams: {
        count: STREAMS,
        settleMs: 3000,
        payload:
          `GET ${live} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nAuthorization: ` +
          `${attacker.authorization}\r\nX-App-Check: ${appCheck}\r\n\r\n`,
      },
    });
    await flood.ready;
    log(
      `flood under way from ` +
        `${ATTACKER}: ${SLOW} slow sockets and ${STREAMS} stream attempts, each closed one tried again after ` +
        `${REATTEMPT_MS} ms`,
    );
    const during = await probe();
    const result = flood.stop();
    log(
      `during: p99 ${during.latencyMs.p99} ms, statuses ${JSON.stringify(during.statusCodes)}, ${during.errors} ` +
        `errors; load average ${load1().toFixed(2)}`,
    );
    log(
      `slow sockets: ${result.slow.attempts} attempts (${tally(result.slow.outcomes)}); streams: ` +
        (`${result.streams.attempts} attempts (${tally(result.streams.outcomes)}); at most ${result.peakHeld} held ` +
          `at once`),
    );

    const budgets = abuseBudgets(during, result);
    for (const b of budgets) console.log(`${b.pass ? 'PASS' : 'FAIL'}  ${b.name}: ${b.measured} (target ${b.target})`);
    const machine = describeMachine(postgres, 'none (no proxy)', loadAtStart);
    const report = {
      machine,
      setup: {
        slowSockets: SLOW,
        streamAttempts: STREAMS,
        probeSeconds: PROBE_SECONDS,
        probeRate: PROBE_RATE,
        reattemptMs: REATTEMPT_MS,
      },
      before,
      during,
      flood: result,
      budgets,
    };
    writeReport(report);
    if (budgets.some((b) => !b.pass)) process.exitCode = 1;
  } finally {
    await api.stop();
  }
} finally {
  await stop();
}

function abuseBudgets(during: LoadResult, flood: FloodResult): Budget[] {
  const allOk = during.errors === 0 && Object.keys(during.statusCodes).every((code) => code.startsWith('2'));
  return [
    {
      name: "a family's reads during the flood: p99",
      target: `under ${P99_BUDGET_MS} ms, every answer 2xx`,
      measured:
        `${during.latencyMs.p99} ms` +
        `${allOk ? '' : `, statuses ${JSON.stringify(during.statusCodes)}, ${during.errors} errors`}`,
      pass: during.latencyMs.p99 < P99_BUDGET_MS && allOk,
    },
    {
      name: "the attacker's sockets held at once",
      target: `at most ${SOCKET_CAP} (MAX_CONNECTIONS_PER_ADDRESS)`,
      measured: String(flood.peakHeld),
      pass: flood.peakHeld <= SOCKET_CAP,
    },
    {
      name: "the attacker's live streams open at once",
      target: `at most ${STREAM_CAP} (LIVE_STREAMS_PER_ACCOUNT)`,
      measured: String(flood.streams.peak200),
      pass: flood.streams.peak200 <= STREAM_CAP,
    },
  ];
}

function writeReport(report: {
  machine: ReturnType<typeof describeMachine>;
  setup: Record<string, number>;
  before: LoadResult;
  during: LoadResult;
  flood: FloodResult;
  budgets: Budget[];
}) {
  const dir = path.join(REPO_ROOT, 'bench/reports');
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'abuse.json'), `${JSON.stringify(report, null, 2)}\n`);
  const m = report.machine;
  const s = report.setup;
  const md = `# Abuse benchmark (issue 36)

${m.date}, commit ${m.commit}; ${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB; Node ${m.node}, PostgreSQL \
${m.postgres}; load average ${m.loadAverage.start} at the start, ${m.loadAverage.end} at the end.

One API process, no proxy; from 127.0.0.2, ${s.slowSockets} half-sent requests and ${s.streamAttempts} live-stream \
attempts of one account, each closed socket tried again after ${s.reattemptMs} ms; a family's available-slots reads \
from 127.0.0.1 at ${s.probeRate}/s for ${s.probeSeconds} s before and during.

| budget | target | measured | |
|---|---|---|---|
${report.budgets.map((b) => `| ${b.name} | ${b.target} | ${b.measured} | ${b.pass ? 'pass' : '**FAIL**'} |`).join('\n')}

- Reads before the flood: p50 ${report.before.latencyMs.p50} ms, p99 ${report.before.latencyMs.p99} ms; during: p50 \
${report.during.latencyMs.p50} ms, p99 ${report.during.latencyMs.p99} ms.
- Slow sockets: ${report.flood.slow.attempts} attempts (${tally(report.flood.slow.outcomes)}); stream attempts: \
${report.flood.streams.attempts} (${tally(report.flood.streams.outcomes)}). "open" = no answer within the settle \
time (300 ms for a slow socket, 3 s for a stream), "closed" = closed unanswered (the per-address cap). Sockets held \
at once: sampled every 250 ms, those open 2 s or more.
`;
  fs.writeFileSync(path.join(dir, 'abuse.md'), md);
}
