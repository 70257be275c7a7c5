import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { LoadRequest, LoadResult } from './load-generator';

const run = promisify(execFile);

const WRK = '/usr/bin/wrk';

/** Debian's wrk, installed once with apt when missing (as ensureNginx does for nginx). */
export async function ensureWrk(): Promise<{ bin: string; version: string }> {
  if (!fs.existsSync(WRK)) {
    if (process.getuid?.() !== 0)
      throw new Error("wrk is not installed: run `sudo apt-get install -y wrk` (Debian's package) and try again");
    console.log("Installing Debian's wrk (apt-get install -y wrk)...");
    await run('apt-get', ['install', '-y', '--no-install-recommends', 'wrk'], {
      env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
    }).catch((err: Error) => {
      throw new Error(`Could not install wrk (apt-get install -y wrk): ${err.message}`);
    });
  }
  // `wrk --version` prints its banner and usage, and exits 1.
  const out = await run(WRK, ['--version']).then(
    (r) => r.stdout,
    (err: { stdout?: string }) => err.stdout ?? '',
  );
  return { bin: WRK, version: /wrk (\S+)/.exec(out)?.[1] ?? 'unknown' };
}

export interface WrkSpec {
  url: string;
  connections: number;
  duration: number;
  /** Cycled in order, one per request, each thread starting at its own offset. */
  requests: LoadRequest[];
  cpuPids?: number[];
  /** taskset's core list for wrk (the direct scenario keeps it off the server's core). */
  cpus?: string;
}

export interface WrkResult extends LoadResult {
  /** Bytes wrk read per answer, headers included: tells 304s (headers only) from full answers. */
  bytesPerResponse: number;
}

const luaString = (s: string) =>
  `"${s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\r/g, '\\r').replace(/\n/g, '\\n')}"`;

/**
 * The Lua script: every request is formatted once in init() (not per request, which would make the
 * generator the bottleneck), and done() prints the summary as one JSON line. Non-2xx/3xx answers
 * and socket errors are counted by wrk itself.
 */
/**
 * BENCH_WRK_STATUSES=1: count answers over 399 by status (a Lua call per answer, so it slows wrk; for finding out
 * only).
 */
const statuses = process.env.BENCH_WRK_STATUSES === '1';

function script(requests: LoadRequest[]): string {
  const entries = requests
    .map((r) => {
      const headers = Object.entries({ ...r.headers, ...(r.body ? { 'content-type': 'application/json' } : {}) })
        .map(([k, v]) => `[${luaString(k)}] = ${luaString(v)}`)
        .join(', ');
      return `{ ${luaString(r.method)}, ${luaString(r.path)}, { ${headers} }, ${r.body ? luaString(r.body) : 'nil'} }`;
    })
    .join(',\n');
  return `local list = {
${entries}
}
local threads = {}
setup = function(thread) thread:set("offset", #threads * 7919); table.insert(threads, thread) end
${
  statuses
    ? 'bad = {}\nresponse = function(status) if status > 399 then bad[status] = (bad[status] or 0) + 1 end ' + 'end'
    : ''
}
local reqs, n, i
init = function(args)
  reqs = {}
  for k, r in ipairs(list) do reqs[k] = wrk.format(r[1], r[2], r[3], r[4]) end
  n = #reqs
  i = (tonumber(offset) or 0) % n
end
request = function()
  i = i % n + 1
  return reqs[i]
end
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('{"requests":%d,"durationUs":%d,"bytes":%d,"connect":%d,"read":%d,"write":%d,' ..
    '"status":%d,"timeout":%d,"p50":%d,"p90":%d,"p99":%d,"max":%d,"mean":%f}\\n',
    summary.requests, summary.duration, summary.bytes, e.connect, e.read, e.write, e.status, e.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max, latency.mean))
${
  statuses
    ? 'for _, t in ipairs(threads) do for k, v in pairs(t:get("bad")) do io.write(string.format("status %d: ' +
      '%d\\n", k, v)) end end'
    : ''
}
end
`;
}

/** User + system CPU seconds of the given processes so far (Linux /proc; clock ticks of 1/100 s). */
const cpuSeconds = (pids: number[]): number =>
  pids.reduce((sum, pid) => {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return sum + (Number(fields[11]) + Number(fields[12])) / 100;
  }, 0);

/**
 * One wrk run: 2 threads (one per core here), raised priority when root (decision 0015: the load
 * generator reads answers as they arrive), latencies from wrk's own histogram (microseconds).
 */
export async function runWrk(spec: WrkSpec, tmpDir: string): Promise<WrkResult> {
  const file = path.join(tmpDir, `wrk-${Date.now()}-${Math.random().toString(36).slice(2)}.lua`);
  fs.writeFileSync(file, script(spec.requests));
  const raisedPriority = process.getuid?.() === 0;
  const args = ['-t2', `-c${spec.connections}`, `-d${spec.duration}s`, '--timeout', '10s', '-s', file, spec.url];
  try {
    const cpuBefore = spec.cpuPids ? cpuSeconds(spec.cpuPids) : 0;
    const command = spec.cpus ? ['taskset', '-c', spec.cpus, WRK, ...args] : [WRK, ...args];
    const { stdout } = raisedPriority
      ? await run('nice', ['-n', '-10', ...command])
      : await run(command[0]!, command.slice(1));
    const cpuAfter = spec.cpuPids ? cpuSeconds(spec.cpuPids) : 0;
    if (statuses)
      for (const l of stdout.split('\n').filter((x) => x.startsWith('status '))) console.log(`    wrk: ${l}`);
    const line = stdout.split('\n').find((l) => l.startsWith('{"requests"'));
    if (!line) throw new Error(`wrk printed no summary:\n${stdout}`);
    const s = JSON.parse(line) as Record<string, number>;
    const seconds = s.durationUs! / 1e6;
    const ms = (us: number) => Math.round(us / 10) / 100;
    const bad = s.status!;
    return {
      requestsPerSecond: s.requests! / seconds,
      total: s.requests!,
      durationSeconds: seconds,
      latencyMs: { p50: ms(s.p50!), p90: ms(s.p90!), p99: ms(s.p99!), max: ms(s.max!), mean: ms(s.mean!) },
      // wrk counts only answers outside 2xx/3xx; what they were is checked before the run (direct scenario).
      statusCodes: { '2xx/3xx': s.requests! - bad, ...(bad ? { other: bad } : {}) },
      errors: s.connect! + s.read! + s.write!,
      timeouts: s.timeout!,
      raisedPriority,
      bytesPerResponse: s.requests! > 0 ? Math.round(s.bytes! / s.requests!) : 0,
      ...(spec.cpuPids && s.requests! > 0
        ? { serverCpuMicrosPerRequest: Math.round(((cpuAfter - cpuBefore) * 1e7) / s.requests!) / 10 }
        : {}),
    };
  } finally {
    fs.rmSync(file, { force: true });
  }
}
