import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { REPO_ROOT } from './processes';

/** One request autocannon sends; the list is cycled, one entry per request. */
export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

export interface LoadSpec {
  url: string;
  connections: number;
  /** Seconds to run, or a fixed number of requests. */
  duration?: number;
  amount?: number;
  requests: LoadRequest[];
  /** A GET the load generator warms its own code up on first (autocannon.worker.ts). */
  warmUpPath?: string;
  /** Server processes whose CPU time the measured run is charged with (LoadResult.serverCpuMicrosPerRequest). */
  cpuPids?: number[];
  /** Epoch ms: the measured run starts at this instant, after the warm-up (the opening race). */
  startAt?: number;
  /** Requests per second in all, paced (a probe of latency at a steady rate, not of throughput). */
  overallRate?: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  total: number;
  durationSeconds: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  statusCodes: Record<string, number>;
  errors: number;
  timeouts: number;
  /** The load generator ran at raised priority (decision 0015); false without the privilege. */
  raisedPriority: boolean;
  /** CPU time (user + system) the cpuPids spent per answered request during the measured run. */
  serverCpuMicrosPerRequest?: number;
  /** With cpuPids: the host's CPUs' busy share over the same window (every process on the host). */
  hostBusy?: number;
}

/** The middle value (the upper one of an even count): rounds are few, and one slow round must not move it. */
export const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** The round with the median throughput (its latencies come with it). */
export function medianRound<T extends LoadResult>(rounds: T[]): T {
  return [...rounds].sort((a, b) => a.requestsPerSecond - b.requestsPerSecond)[Math.floor(rounds.length / 2)]!;
}

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), 'autocannon.worker.ts');
const TSX = path.join(REPO_ROOT, 'node_modules/.bin/tsx');

/**
 * Runs autocannon in its own process (so the load generator never shares an event loop with
 * the bench's bookkeeping) and returns its summary. The spec travels through a temp file: the
 * race's 5,000 distinct customers would not fit on a command line.
 */
export async function runLoad(spec: LoadSpec, tmpDir: string): Promise<LoadResult> {
  const file = path.join(tmpDir, `load-${Date.now()}-${Math.random().toString(36).slice(2)}.json`);
  fs.writeFileSync(file, JSON.stringify(spec));
  try {
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(TSX, [WORKER, file], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      child.on('exit', (code) =>
        code === 0 ? resolve(out) : reject(new Error(`autocannon worker exited with ${code}: ${err}`)),
      );
    });
    return JSON.parse(output) as LoadResult;
  } finally {
    fs.rmSync(file, { force: true });
  }
}
