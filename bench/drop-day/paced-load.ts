import http from 'node:http';
import type { LoadRequest, LoadSpec } from './load-generator';

export interface PacedResult {
  total: number;
  durationSeconds: number;
  latencyMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  statusCodes: Record<string, number>;
  errors: number;
}

/**
 * An open-loop probe: request i is due at start + i / rate, whether or not earlier ones have been
 * answered, and its latency counts from when it was due (so a stalled server is not hidden by a
 * client that waited with it). autocannon's overallRate sends each second's quota in a burst at the
 * second's start, which measured its own queue. One unmeasured second first: the sockets, and the
 * generator's own code compiled, or the first tens of requests would measure its start-up.
 */
export async function runPaced(
  spec: LoadSpec & { overallRate: number },
  pick: () => LoadRequest,
): Promise<PacedResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: spec.connections });
  try {
    await paced(spec, pick, agent, 1);
    return await paced(spec, pick, agent, spec.duration ?? 10);
  } finally {
    agent.destroy();
  }
}

async function paced(
  spec: LoadSpec & { overallRate: number },
  pick: () => LoadRequest,
  agent: http.Agent,
  seconds: number,
): Promise<PacedResult> {
  const url = new URL(spec.url);
  const due = Math.round(seconds * spec.overallRate);
  const latencies: number[] = [];
  const statusCodes: Record<string, number> = {};
  let errors = 0;
  let sent = 0;
  const start = performance.now();
  const send = (dueAt: number) =>
    new Promise<void>((resolve) => {
      const r = pick();
      const req = http.request(
        {
          host: url.hostname,
          port: url.port,
          agent,
          method: r.method,
          path: r.path,
          headers: { ...r.headers, ...(r.body ? { 'content-type': 'application/json' } : {}) },
        },
        (res) => {
          res.resume();
          res.on('end', () => {
            latencies.push(performance.now() - dueAt);
            statusCodes[res.statusCode!] = (statusCodes[res.statusCode!] ?? 0) + 1;
            resolve();
          });
        },
      );
      req.on('error', () => {
        errors++;
        resolve();
      });
      req.end(r.body);
    });
  const inFlight: Promise<void>[] = [];
  while (sent < due) {
    const now = performance.now();
    while (sent < due && start + (sent * 1000) / spec.overallRate <= now)
      inFlight.push(send(start + (sent++ * 1000) / spec.overallRate));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
  await Promise.all(inFlight);
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round((latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0) * 100) / 100;
  return {
    total: latencies.length,
    durationSeconds: (performance.now() - start) / 1000,
    latencyMs: {
      p50: at(0.5),
      p90: at(0.9),
      p99: at(0.99),
      max: at(1),
      mean: Math.round((latencies.reduce((a, b) => a + b, 0) / Math.max(1, latencies.length)) * 100) / 100,
    },
    statusCodes,
    errors,
  };
}
