import { execFileSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';
import { median, type LoadRequest } from './load-generator';
import { REPO_ROOT, startProcesses } from './processes';
import { runWrk, type WrkResult } from './wrk';

export const DIRECT = { connections: 50, rounds: 5 };

/**
 * BENCH_DIRECT_PIN=1: the servers measured on the last core and wrk on the others, for the length of
 * the scenario (decision 0071). Sharing cores, wrk (at raised priority) preempts the server at
 * nearly every answer it wakes up to read; pinned, it cannot. Off by default: on this host the A/B
 * of the two placements did not tell them apart through the host's own swings, and with wrk on
 * one core the p99 reads wrk's queueing as much as the server's.
 */
export function directPlacement(): { server: string; wrk: string } | null {
  const cores = os.availableParallelism();
  if (cores < 2 || process.env.BENCH_DIRECT_PIN !== '1') return null;
  return { server: String(cores - 1), wrk: cores === 2 ? '0' : `0-${cores - 2}` };
}

/** Every thread of `pid` on `cpus` (taskset's list); returns the list to put back. */
function pin(pid: number, cpus: string): string {
  const before =
    /: (\S+)\s*$/.exec(execFileSync('taskset', ['-p', '-c', String(pid)]).toString())?.[1] ??
    `0-${os.availableParallelism() - 1}`;
  execFileSync('taskset', ['-a', '-p', '-c', cpus, String(pid)], { stdio: 'ignore' });
  return before;
}

/**
 * Bare Fastify's speed here follows V8's young generation (decision 0039). Left to itself it keeps
 * 8 MB semi-spaces, where it answers in 16–19 µs of CPU and, for the odd whole process, 13 µs; given
 * 16 MB it answers in 12–13 µs every time. More of the API's objects survive each scavenge, so V8
 * grows its young generation far past that on its own. The budgets keep the default process, as
 * issue 21 set them; this second ceiling is reported beside it, so each run says what the ratios
 * are against bare Fastify at its fastest.
 */
export const LARGE_YOUNG_FLAGS = ['--min-semi-space-size=16'];

/**
 * What Chromium (and so the web app's fetch) sends on every read: a browser never asks for plain
 * JSON, so the budgeted reads carry it and get the answer's brotli bytes (decision 0072). The same
 * reads without it (the 9.6 kB identity answer) are measured too and reported.
 */
export const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';
const asBrowser = (reads: LoadRequest[]): LoadRequest[] =>
  reads.map((r) => ({ ...r, headers: { ...r.headers, 'accept-encoding': BROWSER_ACCEPT_ENCODING } }));
const withoutEncoding = (reads: LoadRequest[]): LoadRequest[] =>
  reads.map((r) => ({
    ...r,
    headers: Object.fromEntries(Object.entries(r.headers ?? {}).filter(([k]) => k.toLowerCase() !== 'accept-encoding')),
  }));

export interface DirectScenario {
  helloWorld: WrkResult;
  /** Bare Fastify again, started with LARGE_YOUNG_FLAGS: not a budget, the ratios' other ceiling. */
  helloWorldLargeYoung: WrkResult;
  /**
   * The first bare Fastify sent the 304 round's requests' headers (the family's token, app check,
   * Accept-Encoding and If-None-Match), so it receives the same bytes but for the path: not a
   * budget; how much of the 304's ratio is the request's own size (decision 0077).
   */
  helloWorldSameRequest: WrkResult;
  /** The reads as a browser sends them (BROWSER_ACCEPT_ENCODING), and their revalidation. */
  availableSlots: WrkResult;
  notModified: WrkResult;
  /** The same reads asking for no coding: reported, not a budget. */
  identity: WrkResult;
  /** The first second of reads after the API idled past its answers' life (decision 0073): reported, not a budget. */
  coldStart: WrkResult;
  /** The highest p99 of those first seconds, ms. */
  coldStartWorstP99: number;
  rounds: {
    helloWorld: number[];
    helloWorldLargeYoung: number[];
    helloWorldSameRequest: number[];
    availableSlots: number[];
    notModified: number[];
    identity: number[];
  };
  /**
   * Each path's server CPU per answer (user + system, µs), the median of its rounds: the budgets
   * compare these (issue 41), since the API is CPU-bound here and hello-world's speed moves with the host.
   */
  cpu: {
    helloWorld: number;
    helloWorldLargeYoung: number;
    helloWorldSameRequest: number;
    availableSlots: number;
    notModified: number;
    identity: number;
  };
  /** The same per round, in round order. */
  cpuRounds: {
    helloWorld: number[];
    helloWorldLargeYoung: number[];
    helloWorldSameRequest: number[];
    availableSlots: number[];
    notModified: number[];
    identity: number[];
  };
  /** Distinct day answers the reads cycle over, and the If-None-Match sanity check's status. */
  /** The cores the servers and wrk ran on (null: shared, BENCH_DIRECT_PIN=0 or one core). */
  placement: { server: string; wrk: string } | null;
  distinctAnswers: number;
  revalidationStatus: number;
  wrk: string;
}

const cpuOf = (r: WrkResult) => r.serverCpuMicrosPerRequest ?? Number.NaN;

/** The round with the median throughput (its latencies come with it). */
const medianRound = (rounds: WrkResult[]): WrkResult =>
  [...rounds].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(rounds.length / 2)]!;

/** Each read path's current ETag, from the API itself (the same bytes have the same tag everywhere). */
async function etagsOf(apiUrl: string, requests: LoadRequest[]): Promise<Map<string, string>> {
  const tags = new Map<string, string>();
  for (const r of requests) {
    if (tags.has(r.path)) continue;
    const res = await fetch(apiUrl + r.path, { headers: r.headers });
    const etag = res.headers.get('etag');
    await res.arrayBuffer();
    if (!res.ok || !etag) throw new Error(`${r.path} answered ${res.status} without an ETag`);
    tags.set(r.path, etag);
  }
  return tags;
}

/** The same reads with If-None-Match naming each path's current answer (answered 304). */
export async function revalidationsOf(
  apiUrl: string,
  reads: LoadRequest[],
): Promise<{ tags: Map<string, string>; requests: LoadRequest[] }> {
  const tags = await etagsOf(apiUrl, reads);
  return {
    tags,
    requests: reads.map((r) => ({ ...r, headers: { ...r.headers, 'if-none-match': tags.get(r.path)! } })),
  };
}

/**
 * Issue 21's direct scenario: one API process against one bare Fastify hello-world process, no
 * proxy, wrk as the generator (a C program: it is not the bottleneck, as autocannon and nginx were).
 * Rounds interleave hello-world, available-slots as a browser asks, the 304 revalidation (the same
 * reads with If-None-Match naming the current answer) and the reads asking for no coding, so a burst
 * from elsewhere on the host hits them all.
 * The API process is one of the bench's three, already warmed with every customer's token.
 */
export async function runDirectScenario(opts: {
  apiAddress: string;
  apiPid: number;
  /** helloPort for bare Fastify as it starts, helloPort + 1 for it with LARGE_YOUNG_FLAGS. */
  helloPort: number;
  reads: LoadRequest[];
  duration: number;
  tmp: string;
  wrkVersion: string;
  log: (msg: string) => void;
}): Promise<DirectScenario> {
  const apiUrl = `http://${opts.apiAddress}`;
  const script = path.join(REPO_ROOT, 'bench/drop-day/hello-world.server.ts');
  const largeYoungPort = opts.helloPort + 1;
  const hello = await startProcesses({
    name: 'hello-direct',
    script,
    cwd: REPO_ROOT,
    ports: [opts.helloPort],
    env: {},
    readyPath: '/hello',
    logDir: opts.tmp,
  });
  const helloLargeYoung = await startProcesses({
    name: 'hello-direct-large-young',
    script,
    cwd: REPO_ROOT,
    ports: [largeYoungPort],
    env: {},
    readyPath: '/hello',
    logDir: opts.tmp,
    nodeFlags: LARGE_YOUNG_FLAGS,
  }).catch(async (err: unknown) => {
    await hello.stop();
    throw err;
  });
  const placement = directPlacement();
  const pinned = placement
    ? [opts.apiPid, ...hello.pids, ...helloLargeYoung.pids].map((pid) => ({ pid, restore: pin(pid, placement.server) }))
    : [];
  try {
    const reads = asBrowser(opts.reads.slice(0, 1000));
    const identityReads = withoutEncoding(reads);
    const helloReqs: LoadRequest[] = [{ method: 'GET', path: '/hello' }];
    const revalidations = () => revalidationsOf(apiUrl, reads);
    opts.log(
      placement
        ? `  servers on core ${placement.server}, wrk on ${placement.wrk}`
        : '  servers and wrk share the cores',
    );
    const first = await revalidations();
    const check = await fetch(apiUrl + first.requests[0]!.path, { headers: first.requests[0]!.headers });
    if (check.status !== 304) throw new Error(`If-None-Match with the current ETag answered ${check.status}, not 304`);
    // Bare Fastify ignores the headers; the tags only need their length (the same for every answer).
    const sameRequests = first.requests.map((r) => ({ ...r, path: '/hello' }));
    const load = (url: string, requests: LoadRequest[], pid: number | undefined, duration = opts.duration) =>
      runWrk(
        {
          url,
          connections: DIRECT.connections,
          duration,
          requests,
          ...(pid ? { cpuPids: [pid] } : {}),
          ...(placement ? { cpus: placement.wrk } : {}),
        },
        opts.tmp,
      );
    // Unmeasured: both servers' code warm on these routes.
    await load(`http://127.0.0.1:${opts.helloPort}`, helloReqs, undefined, 2);
    await load(`http://127.0.0.1:${largeYoungPort}`, helloReqs, undefined, 2);
    await load(apiUrl, reads, undefined, 2);
    await load(apiUrl, first.requests, undefined, 2);
    await load(apiUrl, identityReads, undefined, 2);
    const rounds = {
      helloWorld: [] as WrkResult[],
      helloWorldLargeYoung: [] as WrkResult[],
      helloWorldSameRequest: [] as WrkResult[],
      coldStart: [] as WrkResult[],
      availableSlots: [] as WrkResult[],
      notModified: [] as WrkResult[],
      identity: [] as WrkResult[],
    };
    for (let round = 0; round < DIRECT.rounds; round++) {
      rounds.helloWorld.push(await load(`http://127.0.0.1:${opts.helloPort}`, helloReqs, hello.pids[0]));
      rounds.helloWorldLargeYoung.push(
        await load(`http://127.0.0.1:${largeYoungPort}`, helloReqs, helloLargeYoung.pids[0]),
      );
      rounds.helloWorldSameRequest.push(await load(`http://127.0.0.1:${opts.helloPort}`, sameRequests, hello.pids[0]));
      // The API idled through the hello-world rounds, past its availability answers' 1 s life: a
      // round begun on an empty cache spends its first second on the queries (decision 0073). The
      // budgets are the steady read's, so that second is a round of its own, reported, not budgeted.
      rounds.coldStart.push(await load(apiUrl, reads, opts.apiPid, 1));
      rounds.availableSlots.push(await load(apiUrl, reads, opts.apiPid));
      // Tags taken just before: a session passing the lead time changes its day's answer (and tag).
      rounds.notModified.push(await load(apiUrl, (await revalidations()).requests, opts.apiPid));
      rounds.identity.push(await load(apiUrl, identityReads, opts.apiPid));
      const [h, y, q, a, n, i, c] = [
        rounds.helloWorld[round]!,
        rounds.helloWorldLargeYoung[round]!,
        rounds.helloWorldSameRequest[round]!,
        rounds.availableSlots[round]!,
        rounds.notModified[round]!,
        rounds.identity[round]!,
        rounds.coldStart[round]!,
      ];
      opts.log(
        `  round ${round + 1}: first second after idle ` +
          (`${c.serverCpuMicrosPerRequest} µs CPU each, p99 ${c.latencyMs.p99} ms; hello-world ` +
            (`${Math.round(h.requestsPerSecond)}/s (${h.serverCpuMicrosPerRequest} µs CPU each, p99 ` +
              `${h.latencyMs.p99} ms), `)) +
          `with a 16 MB young generation ` +
          `${Math.round(y.requestsPerSecond)}/s (${y.serverCpuMicrosPerRequest} µs CPU each), sent the 304's ` +
          `request ` +
          `${Math.round(q.requestsPerSecond)}/s (${q.serverCpuMicrosPerRequest} µs CPU each), available-slots ` +
          `${Math.round(a.requestsPerSecond)}/s ` +
          (`(${a.serverCpuMicrosPerRequest} µs CPU each, p99 ${a.latencyMs.p99} ms, ${a.bytesPerResponse} B each), ` +
            `304 ${Math.round(n.requestsPerSecond)}/s `) +
          `(${n.serverCpuMicrosPerRequest} µs CPU each, p99 ${n.latencyMs.p99} ms, ${n.bytesPerResponse} B each); ` +
          (`identity ${Math.round(i.requestsPerSecond)}/s (${i.serverCpuMicrosPerRequest} µs CPU each, ` +
            `${i.bytesPerResponse} B each)`),
      );
    }
    return {
      helloWorld: medianRound(rounds.helloWorld),
      helloWorldLargeYoung: medianRound(rounds.helloWorldLargeYoung),
      helloWorldSameRequest: medianRound(rounds.helloWorldSameRequest),
      availableSlots: medianRound(rounds.availableSlots),
      notModified: medianRound(rounds.notModified),
      identity: medianRound(rounds.identity),
      coldStart: medianRound(rounds.coldStart),
      coldStartWorstP99: Math.max(...rounds.coldStart.map((r) => r.latencyMs.p99)),
      rounds: {
        helloWorld: rounds.helloWorld.map((r) => Math.round(r.requestsPerSecond)),
        helloWorldLargeYoung: rounds.helloWorldLargeYoung.map((r) => Math.round(r.requestsPerSecond)),
        helloWorldSameRequest: rounds.helloWorldSameRequest.map((r) => Math.round(r.requestsPerSecond)),
        availableSlots: rounds.availableSlots.map((r) => Math.round(r.requestsPerSecond)),
        notModified: rounds.notModified.map((r) => Math.round(r.requestsPerSecond)),
        identity: rounds.identity.map((r) => Math.round(r.requestsPerSecond)),
      },
      cpu: {
        helloWorld: median(rounds.helloWorld.map(cpuOf)),
        helloWorldLargeYoung: median(rounds.helloWorldLargeYoung.map(cpuOf)),
        helloWorldSameRequest: median(rounds.helloWorldSameRequest.map(cpuOf)),
        availableSlots: median(rounds.availableSlots.map(cpuOf)),
        notModified: median(rounds.notModified.map(cpuOf)),
        identity: median(rounds.identity.map(cpuOf)),
      },
      cpuRounds: {
        helloWorld: rounds.helloWorld.map(cpuOf),
        helloWorldLargeYoung: rounds.helloWorldLargeYoung.map(cpuOf),
        helloWorldSameRequest: rounds.helloWorldSameRequest.map(cpuOf),
        availableSlots: rounds.availableSlots.map(cpuOf),
        notModified: rounds.notModified.map(cpuOf),
        identity: rounds.identity.map(cpuOf),
      },
      placement,
      distinctAnswers: first.tags.size,
      revalidationStatus: check.status,
      wrk: opts.wrkVersion,
    };
  } finally {
    // The API process goes on to other scenarios (npm run bench): all its cores back.
    for (const p of pinned)
      if (p.pid === opts.apiPid)
        execFileSync('taskset', ['-a', '-p', '-c', p.restore, String(p.pid)], { stdio: 'ignore' });
    await Promise.all([hello.stop(), helloLargeYoung.stop()]);
  }
}
