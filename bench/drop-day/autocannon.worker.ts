import fs from 'node:fs';
import os from 'node:os';
import autocannon from 'autocannon';
import { hostCpuFromNow } from '../budgets/host-cpu';
import { runPaced } from './paced-load';
import type { LoadRequest, LoadResult, LoadSpec } from './load-generator';

/** The load generator's process: reads a LoadSpec file, runs autocannon, prints a LoadResult as JSON. */
const spec = JSON.parse(fs.readFileSync(process.argv[2]!, 'utf8')) as LoadSpec;
let next = 0;
const pick = (): LoadRequest => spec.requests[next++ % spec.requests.length]!;

// The servers' processes outnumber the cores here, and a load generator waiting for its turn read
// answers late: up to 50 ms of the race's p99 was that wait (decision 0015). Raised, it reads an
// answer when it arrives, as a client on its own machine would; it does the same work. Lowering
// niceness needs root (CAP_SYS_NICE): without it the run goes on and the report says so.
let raisedPriority = false;
try {
  os.setPriority(-10);
  raisedPriority = true;
} catch {
  // Normal priority.
}

// A fresh process runs autocannon's code cold, and a race lasts under a second: its first
// requests would pay for the compiling. A short run on a trivial route pays it first.
if (spec.warmUpPath) {
  await autocannon({
    url: spec.url,
    connections: spec.connections,
    amount: 3000,
    requests: [{ method: 'GET', path: spec.warmUpPath }],
  });
}

// The opening race: every attempt is sent from the instant sales open, not before.
if (spec.startAt) await new Promise((resolve) => setTimeout(resolve, Math.max(0, spec.startAt! - Date.now())));

/** User + system CPU seconds of the given processes so far (Linux /proc; clock ticks of 1/100 s). */
const cpuSeconds = (pids: number[]): number =>
  pids.reduce((sum, pid) => {
    // Fields after the parenthesised command name: utime and stime are the 12th and 13th.
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return sum + (Number(fields[11]) + Number(fields[12])) / 100;
  }, 0);
const cpuBefore = spec.cpuPids ? cpuSeconds(spec.cpuPids) : 0;
const hostCpu = spec.cpuPids ? hostCpuFromNow() : null;

/** autocannon, closed loop (each connection sends its next request when the last is answered). */
async function closedLoop(): Promise<Omit<LoadResult, 'requestsPerSecond' | 'raisedPriority'>> {
  const result = await autocannon({
    url: spec.url,
    connections: spec.connections,
    // autocannon notices that a fixed amount is done only at its next sample tick (1 s by default),
    // which would add up to a second to a race that lasts three: sample every 10 ms instead.
    ...(spec.amount ? { amount: spec.amount, sampleInt: 10 } : { duration: spec.duration ?? 10 }),
    timeout: 30,
    requests: [
      {
        // Called for every request: each one takes the next entry (customer, path, body) of the list.
        setupRequest: (req) => {
          const r = pick();
          return {
            ...req,
            method: r.method,
            path: r.path,
            headers: { ...r.headers, ...(r.body ? { 'content-type': 'application/json' } : {}) },
            body: r.body,
          };
        },
      },
    ],
  });
  const statusCodes: Record<string, number> = {};
  for (const [code, stats] of Object.entries(result.statusCodeStats ?? {}))
    statusCodes[code] = (stats as { count: number }).count;
  const { p50, p90, p99, max, mean } = result.latency;
  return {
    total: result.requests.total,
    durationSeconds: result.duration,
    latencyMs: { p50, p90, p99, max, mean },
    statusCodes,
    errors: result.errors,
    timeouts: result.timeouts,
  };
}

// overallRate: an open-loop probe at a steady rate (paced-load.ts); otherwise autocannon.
const run = spec.overallRate
  ? { ...(await runPaced({ ...spec, overallRate: spec.overallRate }, pick)), timeouts: 0 }
  : await closedLoop();
const summary: LoadResult = {
  ...run,
  requestsPerSecond: run.durationSeconds > 0 ? run.total / run.durationSeconds : 0,
  raisedPriority,
  ...(spec.cpuPids && run.total > 0
    ? { serverCpuMicrosPerRequest: Math.round(((cpuSeconds(spec.cpuPids) - cpuBefore) * 1e6) / run.total) }
    : {}),
};
const host = hostCpu?.();
if (host) summary.hostBusy = host.busy;
process.stdout.write(JSON.stringify(summary));
