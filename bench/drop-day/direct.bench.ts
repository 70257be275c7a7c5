/**
 * `npm run bench:direct`: only issue 21's direct scenario (direct.scenario.ts), on its own
 * PostgreSQL and one built API process, in about a minute: for repeating it to see its spread
 * without the rest of `npm run bench`. Prints the three budgets with the host's load average.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { startBenchDatabase } from './bench-database';
import { runDirectScenario } from './direct.scenario';
import { budgetLine, directBudgets } from './drop-day.budgets';
import { runLoad } from './load-generator';
import { benchApiEnv, REPO_ROOT, startProcesses } from './processes';
import { pct } from './report';
import { appCheckToken, availableSlotsReads, createCustomers } from './seed-data';
import { ensureWrk } from './wrk';

const PORTS = { postgres: 4100, api: 4110, hello: 4123 };
const SECONDS = Number(process.env.BENCH_SECONDS ?? 6);
const API_DIR = path.join(REPO_ROOT, 'apps/api');
const load1 = () => os.loadavg()[0]!.toFixed(2);
const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

const wrk = await ensureWrk();
const loadAtStart = load1();
const { tmp, databaseUrl, db, endPool, season, jwtKey, idTokens, stop } = await startBenchDatabase('direct', PORTS.postgres);
try {
  const customers = await createCustomers(db, idTokens, 1000, 'direct');
  await db.execute(sql`vacuum analyze`);
  await endPool();

  execFileSync(process.execPath, ['build.mjs'], { cwd: API_DIR, stdio: 'inherit' });
  const env = benchApiEnv({ databaseUrl, jwtKey, publicUrl: `http://127.0.0.1:${PORTS.api}`, deadStripePort: 4198, deadSmtpPort: 4199 });
  const api = await startProcesses({ name: 'api', script: 'dist/start.mjs', cwd: API_DIR, ports: [PORTS.api], env, readyPath: '/api/v1/ready', logDir: tmp });
  try {
    const reads = availableSlotsReads(customers, season.targets, await appCheckToken(`http://127.0.0.1:${PORTS.api}`));
    await runLoad({ url: `http://127.0.0.1:${PORTS.api}`, connections: 30, amount: reads.length, requests: reads }, tmp);
    log(`Direct scenario: load average ${loadAtStart} at the start, wrk ${wrk.version}`);
    const d = await runDirectScenario({ apiAddress: api.addresses[0]!, apiPid: api.pids[0]!, helloPort: PORTS.hello, reads, duration: SECONDS, tmp, wrkVersion: wrk.version, log });
    console.log(`\nMedian rounds, load average ${loadAtStart} at the start and ${load1()} at the end:`);
    console.log(`  hello-world ${Math.round(d.helloWorld.requestsPerSecond)}/s, p99 ${d.helloWorld.latencyMs.p99} ms; available slots ${Math.round(d.availableSlots.requestsPerSecond)}/s; 304 ${Math.round(d.notModified.requestsPerSecond)}/s`);
    for (const b of directBudgets(d)) console.log(budgetLine(b));
    const y = d.helloWorldLargeYoung.requestsPerSecond;
    console.log(`  not a budget (decision 0039): over bare Fastify with a 16 MB young generation (${Math.round(y)}/s), available slots ${pct(d.availableSlots.requestsPerSecond / y)}, 304 ${pct(d.notModified.requestsPerSecond / y)}`);
    console.log(`JSON ${JSON.stringify({ loadAverage: { start: Number(loadAtStart), end: Number(load1()) }, rounds: d.rounds, p99: { availableSlots: d.availableSlots.latencyMs.p99, notModified: d.notModified.latencyMs.p99, helloWorld: d.helloWorld.latencyMs.p99 }, cpu: { availableSlots: d.availableSlots.serverCpuMicrosPerRequest, notModified: d.notModified.serverCpuMicrosPerRequest, helloWorld: d.helloWorld.serverCpuMicrosPerRequest, helloWorldLargeYoung: d.helloWorldLargeYoung.serverCpuMicrosPerRequest } })}`);
  } finally {
    await api.stop();
  }
} finally {
  await stop();
}
