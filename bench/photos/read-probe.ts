/**
 * The photo bench's read probe in a process of its own (decision 0070): an open-loop GET at
 * PROBE_RPS a second, each timed from when it was due, until a line arrives on stdin; then the
 * latencies (ms) as JSON on stdout. In the bench's own process it shared an event loop with the
 * sender of 300 MB requests, and counted the sender's work against the API.
 */
import http from 'node:http';
import readline from 'node:readline';

const url = new URL(process.env.PROBE_URL!);
const headers = JSON.parse(process.env.PROBE_HEADERS!) as Record<string, string>;
const rps = Number(process.env.PROBE_RPS ?? 20);
const agent = new http.Agent({ keepAlive: true, maxSockets: 20 });
const latencies: number[] = [];
const pending = new Set<Promise<void>>();
let failure: string | null = null;

const read = (dueAt: number) => {
  const done = new Promise<void>((resolve) => {
    const req = http.get(url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => {
        if (res.statusCode !== 200) failure ??= `available slots answered ${res.statusCode}`;
        latencies.push(performance.now() - dueAt);
        resolve();
      });
    });
    req.on('error', (e) => {
      failure ??= e.message;
      resolve();
    });
  }).finally(() => pending.delete(done));
  pending.add(done);
};

const start = performance.now();
let sent = 0;
const timer = setInterval(() => {
  // Every request due by now goes, late or not: a stalled process does not hide a stalled server.
  // Request i is due at start + i / rps, so by now requests 0 … floor(elapsed × rps) are.
  const due = Math.floor(((performance.now() - start) / 1000) * rps) + 1;
  for (; sent < due; sent++) read(start + (sent * 1000) / rps);
}, 5);
process.stdout.write('ready\n');

const stdin = readline.createInterface({ input: process.stdin });
stdin.once('line', async () => {
  clearInterval(timer);
  stdin.close();
  await Promise.all(pending);
  agent.destroy();
  process.stdout.write(`${JSON.stringify({ latencies, failure })}\n`, () => process.exit(0));
});
