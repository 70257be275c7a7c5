/**
 * `npm run bench:profile -- <profile dir or .cpuprofile> [answers]`: where an API process's time went,
 * from the V8 CPU profiles that BENCH_PROFILE_DIR=<dir> makes any bench write (processes.ts).
 * Prints, for the largest profile (the API's main thread, which served the reads):
 * - each step of the hot read path (issue 41: the answer lane's gates, the answer, the headers, the
 *   write; Fastify's hooks for reads that reach it), inclusive, as a share of the busy time and, given
 *   the number of answers the process gave, in µs per answer;
 * - the functions with the most self time.
 * The profile samples wall time on the main thread: on a busy host a sample can land on a thread that
 * waits for a core, so read shares from a quiet host, and CPU per answer from the bench's own figure.
 */
import fs from 'node:fs';
import path from 'node:path';

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: Node[];
  samples: number[];
  timeDeltas: number[];
}

/** The named functions of the read path (hooks are named functions so that they show here). */
const STEPS: [string, string][] = [
  ['serve', 'the answer lane, all of it (gates, answer, headers, write)'],
  ['securityGate', '  gate: security (Origin, unstorable headers)'],
  ['appCheckGate', '  gate: app check (a token verified before)'],
  ['authGate', '  gate: auth (a token verified before, its access)'],
  ['staffAccessGate', '  gate: staff access'],
  ['outcomeOf', '  the answer: coding and ETag compare'],
  ['headersFor', '  the header list (built once per answer)'],
  ['requestIdOf', '  request id'],
  ['writeHead', '  Node: status line and headers (validated)'],
  ['end', '  Node: the write (system call included)'],
  ['requestId', 'Fastify hook: request id'],
  ['authenticateCaller', 'Fastify hook: auth'],
  ['appCheck', 'Fastify hook: app check'],
  ['securityHeaders', 'Fastify hook: security headers and storable text'],
  ['accessLog', 'Fastify hook: access log (LOG_REQUESTS)'],
  ['parserOnHeadersComplete', 'Node: a request parsed (everything after it, lane or Fastify)'],
  ['(garbage collector)', 'V8: garbage collection'],
];

const target = process.argv[2];
const answers = Number(process.argv[3] ?? 0);
if (!target) throw new Error('usage: npm run bench:profile -- <dir or .cpuprofile> [answers the process gave]');
const file = fs.statSync(target).isDirectory()
  ? fs
      .readdirSync(target)
      .filter((f) => f.endsWith('.cpuprofile'))
      .map((f) => path.join(target, f))
      .sort((a, b) => fs.statSync(b).size - fs.statSync(a).size)[0]
  : target;
if (!file) throw new Error(`no .cpuprofile in ${target}`);
const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as Profile;

const byId = new Map(profile.nodes.map((n) => [n.id, n]));
const parent = new Map<number, number>();
for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
const selfTime = new Map<number, number>();
profile.samples.forEach((id, i) => selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

const total = [...selfTime.values()].reduce((a, b) => a + b, 0);
const idle = [...selfTime]
  .filter(([id]) => byId.get(id)!.callFrame.functionName === '(idle)')
  .reduce((a, [, t]) => a + t, 0);
const busy = total - idle;
const label = (n: Node) =>
  `${n.callFrame.functionName || '(anonymous)'} ${path.basename(n.callFrame.url)}:${n.callFrame.lineNumber + 1}`;

// Inclusive time per function name: each sample counts once per name on its stack (recursion once).
const inclusive = new Map<string, number>();
const self = new Map<string, number>();
for (const [id, t] of selfTime) {
  const top = byId.get(id)!;
  if (top.callFrame.functionName === '(idle)') continue;
  self.set(label(top), (self.get(label(top)) ?? 0) + t);
  const seen = new Set<string>();
  for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
    const name = byId.get(cur)!.callFrame.functionName;
    if (!seen.has(name)) inclusive.set(name, (inclusive.get(name) ?? 0) + t);
    seen.add(name);
  }
}

const share = (t: number) => `${((100 * t) / busy).toFixed(1).padStart(5)}%`;
const perAnswer = (t: number) => (answers > 0 ? `${(t / answers).toFixed(2).padStart(6)} µs` : '');
console.log(
  `${path.basename(file)}: ${(total / 1e6).toFixed(1)} s sampled, busy ${(busy / 1e6).toFixed(1)} s` +
    `${answers ? `, ${answers} answers` : ''}\n`,
);
console.log('The read path, inclusive (share of busy time, per answer):');
for (const [name, what] of STEPS) {
  const t = inclusive.get(name) ?? 0;
  console.log(`  ${share(t)} ${perAnswer(t)}  ${what}${t === 0 ? ' (not seen)' : ''}`);
}
// Tracing's own work (decisions 0095, 0102): self time in OpenTelemetry's packages and the API's tracing module.
const TRACING = /node_modules\/(@opentelemetry|@fastify\/otel)\/|\/tracing(-[A-Z0-9]+)?\.(mjs|ts)$/;
const tracing = [...selfTime]
  .filter(([id]) => TRACING.test(byId.get(id)!.callFrame.url))
  .reduce((a, [, t]) => a + t, 0);
console.log(
  `\n  ${share(tracing)} ${perAnswer(tracing)}  tracing: self time in OpenTelemetry frames (the tracing module's too)`,
);
console.log('\nMost self time:');
for (const [name, t] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 25))
  console.log(`  ${share(t)} ${perAnswer(t)}  ${name}`);
