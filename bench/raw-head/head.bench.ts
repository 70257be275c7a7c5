/**
 * `npm run bench:raw-head`: the prebuilt response head (decision 0072) against writeHead, each in a
 * bare server process of its own, so nothing else in the API moves the figure: wrk at 50
 * connections, 4 s rounds in ABBA order, CPU per answer of each server for a 304 and a 9.6 kB 200.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { median } from '../drop-day/load-generator';
import { REPO_ROOT, startProcesses } from '../drop-day/processes';
import { ensureWrk, runWrk } from '../drop-day/wrk';

const PORTS = { node: 4130, raw: 4131 };
const ROUNDS = ['node', 'raw', 'raw', 'node', 'node', 'raw', 'raw', 'node', 'node', 'raw', 'raw', 'node'] as const;
const REQUEST = {
  authorization: `Bearer ${'a'.repeat(780)}`,
  'x-app-check': 'b'.repeat(200),
  'if-none-match': '"WDu-zjE5qcVLDkV3u11Vlw"',
};

await ensureWrk();
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kringle-raw-head-'));
const script = path.join(REPO_ROOT, 'bench/raw-head/head.server.ts');
const sides = {
  node: await startProcesses({
    name: 'head-node',
    script,
    cwd: REPO_ROOT,
    ports: [PORTS.node],
    env: { HEAD: 'node' },
    readyPath: '/200',
    logDir: tmp,
  }),
  raw: await startProcesses({
    name: 'head-raw',
    script,
    cwd: REPO_ROOT,
    ports: [PORTS.raw],
    env: { HEAD: 'raw' },
    readyPath: '/200',
    logDir: tmp,
  }),
};
try {
  const cpu = { node: { 200: [] as number[], 304: [] as number[] }, raw: { 200: [] as number[], 304: [] as number[] } };
  const load = (side: 'node' | 'raw', status: 200 | 304, seconds: number, measured: boolean) =>
    runWrk(
      {
        url: `http://127.0.0.1:${PORTS[side]}`,
        connections: 50,
        duration: seconds,
        requests: [{ method: 'GET', path: `/${status}`, headers: REQUEST }],
        ...(measured ? { cpuPids: sides[side].pids } : {}),
      },
      tmp,
    );
  for (const side of ['node', 'raw'] as const)
    for (const status of [200, 304] as const) await load(side, status, 2, false);
  for (const side of ROUNDS) {
    for (const status of [304, 200] as const) {
      const r = await load(side, status, 4, true);
      if (r.errors || r.timeouts || r.statusCodes.other) throw new Error(`${side} ${status}: errors in the run`);
      cpu[side][status].push(r.serverCpuMicrosPerRequest!);
      console.log(
        `${side.padEnd(4)} ${status} ${Math.round(r.requestsPerSecond)}/s, ${r.serverCpuMicrosPerRequest} µs CPU ` +
          `each, ${r.bytesPerResponse} B each`,
      );
    }
  }
  console.log(`\nMedians of ${ROUNDS.length / 2} rounds each (ABBA), load average ${os.loadavg()[0]!.toFixed(2)}:`);
  for (const status of [304, 200] as const) {
    const [n, r] = [median(cpu.node[status]), median(cpu.raw[status])];
    console.log(`  ${status}: writeHead ${n} µs, prebuilt head ${r} µs CPU per answer: ${(r / n).toFixed(3)}×`);
  }
} finally {
  await Promise.all([sides.node.stop(), sides.raw.stop()]);
  fs.rmSync(tmp, { recursive: true, force: true });
}
