/**
 * `npm run bench:abuse` (issue 36): while one address opens BENCH_SLOW_SOCKETS half-sent requests
 * (a request line, `Content-Length: 60000` and one byte, to a route without app check) and BENCH_STREAM_ATTEMPTS live streams
 * with one account, a family's available-slots reads from another address keep their p99 budget
 * (25 ms, the direct budget of drop-day.budgets.ts), measured at a steady rate before and during.
 *
 * One built API process, no proxy (TRUST_PROXY=false, so the per-address socket cap applies), rate
 * limits on (the live-stream caps). The attacker is 127.0.0.2 and the family 127.0.0.1: Linux
 * routes all of 127/8 to loopback, so the two are different addresses to the API.
 */
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startBenchDatabase } from './bench-database';
import { runLoad } from './load-generator';
import { benchApiEnv, REPO_ROOT, startProcesses } from './processes';
import { appCheckToken, availableSlotsReads, createCustomers } from './seed-data';

const SLOW = Number(process.env.BENCH_SLOW_SOCKETS ?? 2000);
const STREAMS = Number(process.env.BENCH_STREAM_ATTEMPTS ?? 2000);
const PROBE_SECONDS = Number(process.env.BENCH_PROBE_SECONDS ?? 10);
const PROBE_RATE = 200;
const P99_BUDGET_MS = 25;
const ATTACKER = '127.0.0.2';
const PORTS = { postgres: 4130, api: 4140 };
const load1 = () => os.loadavg()[0]!.toFixed(2);

/** Opens a socket from the attacker's address; resolves with how the server answered the first bytes, or 'open'. */
function attack(payload: string, settleMs: number): Promise<{ socket: net.Socket; outcome: 'open' | 'closed' | string }> {
  return new Promise((resolve) => {
    const socket = net.connect({ port: PORTS.api, host: '127.0.0.1', localAddress: ATTACKER });
    let head = '';
    const done = (outcome: string) => {
      clearTimeout(timer);
      resolve({ socket, outcome });
    };
    const timer = setTimeout(() => done('open'), settleMs);
    socket.on('connect', () => socket.write(payload));
    socket.on('data', (chunk: Buffer) => {
      head += chunk.toString();
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (status) done(status[1]!);
    });
    socket.on('close', () => done('closed'));
    socket.on('error', () => {});
  });
}

const tally = (outcomes: string[]) => Object.entries(outcomes.reduce<Record<string, number>>((m, o) => ((m[o] = (m[o] ?? 0) + 1), m), {})).map(([k, v]) => `${k} ${v}`).join(', ');

const { tmp, databaseUrl, db, endPool, season, jwtKey, idTokens, stop } = await startBenchDatabase('abuse', PORTS.postgres);
const sockets: net.Socket[] = [];
try {
  const customers = await createCustomers(db, idTokens, 51, 'abuse');
  await endPool();
  const attacker = customers.pop()!;
  const env = { ...benchApiEnv({ databaseUrl, jwtKey, publicUrl: `http://127.0.0.1:${PORTS.api}`, deadStripePort: 4198, deadSmtpPort: 4199 }), TRUST_PROXY: 'false', RATE_LIMIT_MODE: 'on' };
  const api = await startProcesses({ name: 'api', script: 'dist/start.mjs', cwd: path.join(REPO_ROOT, 'apps/api'), ports: [PORTS.api], env, readyPath: '/api/v1/ready', logDir: tmp });
  try {
    const base = `http://127.0.0.1:${PORTS.api}`;
    const appCheck = await appCheckToken(base);
    const reads = availableSlotsReads(customers, season.targets, appCheck);
    const probe = () => runLoad({ url: base, connections: 10, overallRate: PROBE_RATE, duration: PROBE_SECONDS, requests: reads, warmUpPath: '/api/v1/health' }, tmp);
    const before = await probe();
    console.log(`before: p99 ${before.latencyMs.p99} ms at ${PROBE_RATE}/s; load average ${load1()}`);

    const slow: string[] = [];
    for (let i = 0; i < SLOW; i += 200) {
      const batch = await Promise.all(Array.from({ length: Math.min(200, SLOW - i) }, () => attack('POST /api/v1/app-check/exchange HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n\r\n{', 300)));
      for (const b of batch) {
        sockets.push(b.socket);
        slow.push(b.outcome);
      }
    }
    console.log(`${SLOW} slow sockets from ${ATTACKER}: ${tally(slow)} (open ones are cut at REQUEST_TIMEOUT_MS)`);
    const live = `/api/v1/booking-slot/${season.targets[0]!.locationId}/live`;
    const streams: string[] = [];
    for (let i = 0; i < STREAMS; i += 200) {
      const request = `GET ${live} HTTP/1.1\r\nHost: x\r\nAccept: text/event-stream\r\nAuthorization: ${attacker.authorization}\r\nX-App-Check: ${appCheck}\r\n\r\n`;
      const batch = await Promise.all(Array.from({ length: Math.min(200, STREAMS - i) }, () => attack(request, 1000)));
      for (const b of batch) {
        sockets.push(b.socket);
        streams.push(b.outcome);
      }
    }
    console.log(`${STREAMS} stream attempts with one account from ${ATTACKER}: ${tally(streams)}`);

    const during = await probe();
    const pass = during.latencyMs.p99 < P99_BUDGET_MS && during.errors === 0 && Object.keys(during.statusCodes).every((code) => code.startsWith('2'));
    console.log(`during: p99 ${during.latencyMs.p99} ms at ${PROBE_RATE}/s, statuses ${JSON.stringify(during.statusCodes)}, ${during.errors} errors; load average ${load1()}`);
    console.log(`${pass ? 'PASS' : 'FAIL'}  a family's reads keep p99 < ${P99_BUDGET_MS} ms while one address floods (before ${before.latencyMs.p99} ms, during ${during.latencyMs.p99} ms)`);
    if (!pass) process.exitCode = 1;
  } finally {
    for (const s of sockets) s.destroy();
    await api.stop();
  }
} finally {
  await stop();
}
