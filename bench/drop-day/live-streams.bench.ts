/**
 * `npm run bench:live`: issue 21's live-availability load test, written against the contract of
 * `GET /api/v1/booking-slot/{locationId}/live` (Server-Sent Events: `event: slot` / `event: changed`,
 * JSON data; the ID token and X-App-Check headers; decision 0026).
 *
 * One built API process on its own PostgreSQL: opens STREAMS streams with raw sockets (not
 * EventSource, not an HTTP agent: 5,000 clients must cost the generator little), measures the
 * server's resident memory per open stream, then takes a hold on a session of that location and
 * times, for every stream, the first event that arrives after the hold's answer. Budget: 99% of
 * the streams within 1 s. Then, with the streams still open, the direct scenario (direct.scenario.ts:
 * wrk, one process, no proxy) measures the read budgets against a bare Fastify process.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { startBenchDatabase } from './bench-database';
import { runDirectScenario } from './direct.scenario';
import { budgetLine, directBudgets, directTargets, targetLine } from './drop-day.budgets';
import { runLoad } from './load-generator';
import { benchApiEnv, REPO_ROOT, startProcesses } from './processes';
import { appCheckToken, availableSlotsReads, createCustomers } from './seed-data';
import { ensureWrk } from './wrk';

const STREAMS = Number(process.env.BENCH_STREAMS ?? 5000);
const PORTS = { postgres: 4100, api: 4110, hello: 4123 };
const API_DIR = path.join(REPO_ROOT, 'apps/api');
const load1 = () => os.loadavg()[0]!.toFixed(2);
const rssKiB = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]);

interface Stream {
  socket: net.Socket;
  /** When the first event after `armedAt` arrived (performance.now()). */
  heardAt: number | null;
  armed: boolean;
}

/** One SSE stream over a raw socket: resolves once the answer's headers say 200 text/event-stream. */
function openStream(port: number, pathAndQuery: string, headers: Record<string, string>): Promise<Stream> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const stream: Stream = { socket, heardAt: null, armed: false };
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
        if (!/^HTTP\/1\.1 200/.test(head) || !/content-type: text\/event-stream/i.test(head)) {
          socket.destroy();
          return reject(new Error(`the live stream answered: ${head.slice(0, 300)}`));
        }
        open = true;
        resolve(stream);
        chunk = head.slice(end + 4);
      }
      // Comments (": keep-alive") are not events; any `event:` line after arming counts.
      if (stream.armed && stream.heardAt === null && /(^|\n)event: (slot|changed)\b/.test(chunk))
        stream.heardAt = performance.now();
    });
    socket.on('error', reject);
  });
}

const { tmp, databaseUrl, db, endPool, season, jwtKey, idTokens, stop } = await startBenchDatabase(
  'live',
  PORTS.postgres,
);
const streams: Stream[] = [];
try {
  const customers = await createCustomers(db, idTokens, Math.min(STREAMS, 2000) + 1, 'live');
  const target = season.targets[0]!;
  const slot = (
    await db.execute(
      sql`select id from slots where location_id =
${target.locationId}::uuid and kind = 'session' and start_at > now() + interval '1 day' order by start_at limit 1`,
    )
  ).rows[0]!.id as string;
  await endPool();

  const env = benchApiEnv({
    databaseUrl,
    jwtKey,
    publicUrl: `http://127.0.0.1:${PORTS.api}`,
    deadStripePort: 4198,
    deadSmtpPort: 4199,
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
    const appCheck = await appCheckToken(`http://127.0.0.1:${PORTS.api}`);
    const pid = api.pids[0]!;
    const rssBefore = rssKiB(pid);
    console.log(
      `load average ${load1()}; opening ${STREAMS} streams on one process (RSS ${Math.round(rssBefore / 1024)} MiB)`,
    );
    const livePath = `/api/v1/booking-slot/${target.locationId}/live`;
    for (let i = 0; i < STREAMS; i += 200) {
      const batch = Array.from({ length: Math.min(200, STREAMS - i) }, (_, j) =>
        openStream(PORTS.api, livePath, {
          authorization: customers[(i + j) % (customers.length - 1)]!.authorization,
          'x-app-check': appCheck,
        }),
      );
      streams.push(...(await Promise.all(batch)));
    }
    // Let the first events (a snapshot, if the stream sends one) and the collector settle.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const rssOpen = rssKiB(pid);
    console.log(
      `${streams.length} streams open: RSS ${Math.round(rssOpen / 1024)} MiB, ` +
        `${(((rssOpen - rssBefore) * 1024) / streams.length / 1024).toFixed(1)} KiB per stream`,
    );

    for (const s of streams) s.armed = true;
    const holder = customers[customers.length - 1]!;
    const hold = await fetch(`http://127.0.0.1:${PORTS.api}/api/v1/bookings/reservation`, {
      method: 'POST',
      headers: { authorization: holder.authorization, 'x-app-check': appCheck, 'content-type': 'application/json' },
      body: JSON.stringify({ slotId: slot }),
    });
    const changedAt = performance.now();
    if (hold.status !== 201) throw new Error(`the hold answered ${hold.status}: ${await hold.text()}`);
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const delays = streams
      .map((s) => (s.heardAt === null ? Infinity : Math.max(0, s.heardAt - changedAt)))
      .sort((a, b) => a - b);
    const within1s = delays.filter((d) => d <= 1000).length / delays.length;
    const at = (q: number) => delays[Math.min(delays.length - 1, Math.floor(q * delays.length))]!;
    console.log(
      `after the hold: p50 ` +
        (`${at(0.5).toFixed(0)} ms, p99 ${at(0.99).toFixed(0)} ms, ${(within1s * 100).toFixed(1)}% within 1 s, ` +
          `${delays.filter((d) => d === Infinity).length} never heard in 5 s`),
    );
    console.log(
      `${within1s >= 0.99 ? 'PASS' : 'FAIL'}  a change reaches 99% of ` +
        `${streams.length} streams within 1 s; load average ${load1()}`,
    );

    // The read budgets with every stream still open (issue 21): the same direct scenario as `npm run bench`.
    const wrk = await ensureWrk();
    const reads = availableSlotsReads(customers.slice(0, -1), season.targets, appCheck);
    await runLoad(
      { url: `http://127.0.0.1:${PORTS.api}`, connections: 30, amount: reads.length, requests: reads },
      tmp,
    );
    const d = await runDirectScenario({
      apiAddress: api.addresses[0]!,
      apiPid: pid,
      helloPort: PORTS.hello,
      reads,
      duration: 6,
      tmp,
      wrkVersion: wrk.version,
      log: console.log,
    });
    const still = streams.filter((s) => !s.socket.destroyed).length;
    console.log(
      `with ${still} streams open, medians of the rounds: hello-world ` +
        `${Math.round(d.helloWorld.requestsPerSecond)}/s; load average ${load1()}`,
    );
    for (const b of directBudgets(d)) console.log(budgetLine(b));
    for (const b of directTargets(d)) console.log(targetLine(b));
  } finally {
    for (const s of streams) s.socket.destroy();
    await api.stop();
  }
} finally {
  await stop();
}
