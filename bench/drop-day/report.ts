import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { DirectScenario } from './direct.scenario';
import type { LoadResult } from './load-generator';
import type { OpeningRace } from './opening-race';
import { REPO_ROOT } from './processes';

export interface Budget {
  name: string;
  target: string;
  measured: string;
  pass: boolean;
}

export interface Machine {
  cpu: string;
  cores: number;
  ramGiB: number;
  node: string;
  postgres: string;
  nginx: string;
  commit: string;
  date: string;
  /**
   * 1-minute load average when the run started (above the core count, something else was busy) and ended (the bench's
   * own load included).
   */
  loadAverage: { start: number; end: number };
}

export function describeMachine(postgres: string, nginx: string, loadAtStart: number): Machine {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: REPO_ROOT }).toString().trim();
    if (
      execFileSync('git', ['status', '--porcelain', '--', 'apps', 'packages', 'bench/drop-day', 'bench/nginx'], {
        cwd: REPO_ROOT,
      })
        .toString()
        .trim()
    )
      commit += ' (with local changes)';
  } catch {
    // Not a git checkout: the report says so.
  }
  return {
    cpu: os.cpus()[0]?.model.trim() ?? 'unknown',
    cores: os.availableParallelism(),
    ramGiB: Math.round((os.totalmem() / 1024 ** 3) * 10) / 10,
    node: process.version,
    postgres,
    nginx,
    commit,
    date: new Date().toISOString(),
    loadAverage: { start: Math.round(loadAtStart * 100) / 100, end: Math.round(os.loadavg()[0]! * 100) / 100 },
  };
}

const ms = (v: number) => `${v.toFixed(v < 10 ? 1 : 0)} ms`;
/** One decimal: a ratio of 49.7% must not read as a failed 50%. */
export const pct = (v: number) => `${(v * 100).toFixed(1)}%`;
const rps = (v: number) => `${Math.round(v).toLocaleString('en-AU')}/s`;
const codes = (r: LoadResult) =>
  Object.entries(r.statusCodes)
    .map(([c, n]) => `${c}: ${n}`)
    .join(', ') + (r.errors ? `, socket errors: ${r.errors}` : '');

const loadRow = (name: string, r: LoadResult, connections: number) =>
  `| ${name} | ${connections} | ${rps(r.requestsPerSecond)} | ${ms(r.latencyMs.p50)} | ${ms(r.latencyMs.p99)} | ` +
  `${codes(r)} |`;

export interface Report {
  machine: Machine;
  setup: Record<string, string | number>;
  scenarios: {
    helloWorld: LoadResult;
    availableSlots: LoadResult;
    race: LoadResult & {
      slots: number;
      attempts: number;
      granted: number;
      database: { heldSlots: number; activeReservations: number; slotsWithTwoHolders: number };
      holdQueriesPerRound: number[];
    };
    pgbench: { tps: number; runs: number[]; clients: number; transactions: number };
    /** The same race, sent from the instant the sessions' locations open (opening-race.ts). */
    opening: OpeningRace;
    /** Throughput of every round, in the order run. */
    rounds: Record<string, number[]>;
    /** The server processes' CPU time per answered request, median of the rounds (LoadResult). */
    serverCpuMicrosPerRequest: { helloWorld: number; availableSlots: number; raceAttempt: number };
    signIn: {
      storm: LoadResult;
      readsDuringStorm: LoadResult;
      /** The same read probe just before the storm, without it. */
      readsAlone: LoadResult;
      argon2VerifyMs: number;
      concurrentHashesPerProcess: number;
      boundPerSecond: number;
      /** @node-rs/argon2 alone, one verify per core at once, just before and just after the storm. */
      argon2RawPerSecond: { before: number; after: number; concurrency: number };
      /**
       * The API processes' CPU time per sign-in during the storm (hash threads included, the probe's reads taken out).
       */
      apiCpuMsPerSignIn: number;
      /** The host's CPUs' busy share over the storm (null without /proc/stat). */
      hostBusyDuringStorm: number | null;
    };
    /** Issue 21: one process each, no proxy, wrk. */
    direct: DirectScenario;
  };
  /** The statements PostgreSQL ran most during a scenario (pg_stat_statements). */
  statements: Record<string, Array<{ calls: number; rows: number; meanMs: number; query: string }>>;
  ratios: {
    availableSlotsOverHelloWorld: number;
    holdsOverPgbench: number;
    directAvailableSlotsOverHelloWorld: number;
    directNotModifiedOverHelloWorld: number;
  };
  budgets: Budget[];
}

export function writeReports(
  report: Report,
  dir = path.join(REPO_ROOT, 'bench/reports'),
): { json: string; md: string } {
  fs.mkdirSync(dir, { recursive: true });
  const json = path.join(dir, 'drop-day.json');
  const md = path.join(dir, 'drop-day.md');
  fs.writeFileSync(json, `${JSON.stringify(report, null, 2)}\n`);
  fs.writeFileSync(md, markdown(report));
  return { json, md };
}

function markdown(r: Report): string {
  const m = r.machine;
  const s = r.scenarios;
  const argon2RawMean = (s.signIn.argon2RawPerSecond.before + s.signIn.argon2RawPerSecond.after) / 2;
  return `# Drop-day benchmark

Run ${m.date} at commit \`${m.commit}\` with \`npm run bench\`.

**Machine:** ${m.cpu}, ${m.cores} cores, ${m.ramGiB} GiB RAM; Node ${m.node}; ${m.postgres}; nginx ${m.nginx}.
Everything (PostgreSQL, nginx, ${r.setup.apiProcesses} API processes, the load generator) shares this one machine.
1-minute load average ${m.loadAverage.start} at the start${
    m.loadAverage.start > m.cores
      ? ` (above ${m.cores} cores: other ` + `work was running or had just run, so treat the figures as a lower bound)`
      : ''
  } and ${m.loadAverage.end} at the end (the bench's own load included).

## Budgets

| Budget | Target | Measured | |
|---|---|---|---|
${r.budgets.map((b) => `| ${b.name} | ${b.target} | ${b.measured} | ${b.pass ? 'pass' : '**FAIL**'} |`).join('\n')}

## Ratios to the machine's ceilings

- Available slots over bare Fastify: **${pct(r.ratios.availableSlotsOverHelloWorld)}** (\
${rps(s.availableSlots.requestsPerSecond)} over ${rps(s.helloWorld.requestsPerSecond)}).
- Direct, one process each, no proxy, wrk ${s.direct.wrk} at 50 connections: available slots **\
${pct(r.ratios.directAvailableSlotsOverHelloWorld)}** of bare Fastify
  (${rps(s.direct.availableSlots.requestsPerSecond)} over ${rps(s.direct.helloWorld.requestsPerSecond)}), the 304 \
revalidation **${pct(r.ratios.directNotModifiedOverHelloWorld)}** (${rps(s.direct.notModified.requestsPerSecond)}):
  targets that follow from the CPU budgets, not budgets (issue 41). CPU per answer, median rounds: hello-world \
${s.direct.cpu.helloWorld} µs,
  available slots ${s.direct.cpu.availableSlots} µs (\
${(s.direct.cpu.availableSlots / s.direct.cpu.helloWorld).toFixed(2)}×), 304 ${s.direct.cpu.notModified} µs (\
${(s.direct.cpu.notModified / s.direct.cpu.helloWorld).toFixed(2)}×).
  Against bare Fastify with a 16 MB young generation (${rps(s.direct.helloWorldLargeYoung.requestsPerSecond)}, not \
a budget: decision 0039), the same reads are
  ${pct(s.direct.availableSlots.requestsPerSecond / s.direct.helloWorldLargeYoung.requestsPerSecond)} and \
${pct(s.direct.notModified.requestsPerSecond / s.direct.helloWorldLargeYoung.requestsPerSecond)}.
  Bare Fastify sent the 304's own request (its token, app check and tags) costs \
${s.direct.cpu.helloWorldSameRequest} µs an answer; the 304 over it:
  ${(s.direct.cpu.notModified / s.direct.cpu.helloWorldSameRequest).toFixed(2)}× (not a budget: decision 0077).
- Hold attempts over pgbench running the hold's conditional UPDATE: **${pct(r.ratios.holdsOverPgbench)}** (\
${rps(s.race.requestsPerSecond)} over ${rps(s.pgbench.tps)}).
- For scale: on these shared cores, a hold that cost only one hello-world request plus one pgbench
  transaction (no auth, no validation, no driver, nothing else) would reach
  ${pct(zeroCostHoldRatio(s.helloWorld.requestsPerSecond, s.pgbench.tps))} of pgbench.
- CPU per answered request, the server processes' user + system time (median round; 3 processes,
  nginx and PostgreSQL not counted): hello-world ${s.serverCpuMicrosPerRequest.helloWorld} µs, available slots \
${s.serverCpuMicrosPerRequest.availableSlots} µs, race attempt
  ${s.serverCpuMicrosPerRequest.raceAttempt} µs. On a shared host this moves with the neighbours too; to weigh a \
change, compare
  two builds side by side with \`npm run bench:ab\`.

## Scenarios

| Scenario | Connections | Throughput | p50 | p99 | Responses |
|---|---|---|---|---|---|
${loadRow('Bare Fastify hello-world (3 processes behind the same nginx)', s.helloWorld, Number(r.setup.connections))}
${loadRow('Signed-in customers read available slots', s.availableSlots, Number(r.setup.connections))}
${loadRow(
  `Race: ${s.race.attempts.toLocaleString('en-AU')} distinct customers hold ` + `${s.race.slots} sessions`,
  s.race,
  Number(r.setup.connections),
)}
${loadRow(
  `Opening: ${s.race.attempts.toLocaleString('en-AU')} attempts from the instant sales ` + `open`,
  s.opening,
  Number(r.setup.connections),
)}
${loadRow('Direct: bare Fastify hello-world, one process, no proxy (wrk)', s.direct.helloWorld, 50)}
${loadRow('Direct: the same, started with a 16 MB young generation (wrk)', s.direct.helloWorldLargeYoung, 50)}
${loadRow("Direct: the same, sent the 304's request headers (wrk)", s.direct.helloWorldSameRequest, 50)}
${loadRow('Direct: available slots, one API process, no proxy (wrk)', s.direct.availableSlots, 50)}
${loadRow('Direct: the same reads revalidated with If-None-Match (wrk)', s.direct.notModified, 50)}
${loadRow('Sign-in storm (real argon2id)', s.signIn.storm, Number(r.setup.signInConnections))}
${loadRow(
  `Available-slots reads just before the storm (the same probe, alone, paced at ` +
    `${parseInt(String(r.setup.probeRate), 10)}/s)`,
  s.signIn.readsAlone,
  Number(r.setup.probeConnections),
)}
${loadRow(
  `Available-slots reads during the sign-in storm (paced at ` + `${parseInt(String(r.setup.probeRate), 10)}/s)`,
  s.signIn.readsDuringStorm,
  Number(r.setup.probeConnections),
)}

- Rounds (throughput per round, interleaved, median reported): ${Object.entries(s.rounds)
    .map(([k, v]) => `${k} ${v.join(' / ')}`)
    .join('; ')}.
- Direct scenario (issue 21): ${s.direct.distinctAnswers} distinct day answers; bytes read per answer, headers included:
  available slots ${s.direct.availableSlots.bytesPerResponse}, revalidation \
${s.direct.notModified.bytesPerResponse} (a 304 before the run: ${s.direct.revalidationStatus});
  CPU per answer of the one API process: available slots ${s.direct.availableSlots.serverCpuMicrosPerRequest} µs, \
304 ${s.direct.notModified.serverCpuMicrosPerRequest} µs,
  hello-world ${s.direct.helloWorld.serverCpuMicrosPerRequest} µs (\
${s.direct.helloWorldLargeYoung.serverCpuMicrosPerRequest} µs with a 16 MB young generation). wrk counts only \
answers outside 2xx/3xx, shown as "other".
- pgbench ceiling: ${s.pgbench.clients} clients, ${s.pgbench.transactions.toLocaleString('en-AU')} prepared \
transactions per round on the same ${s.race.slots} sessions (\`bench/drop-day/hold-claim.pgbench.sql\`).
- Race result in the database: ${s.race.database.heldSlots} sessions held, ${s.race.database.activeReservations} \
live reservations, ${s.race.database.slotsWithTwoHolders} sessions with two holders.
- Race attempts that reached PostgreSQL (alone or in a batch), per round: ${s.race.holdQueriesPerRound.join(' / ')} \
of ${s.race.attempts.toLocaleString('en-AU')}. The others were
  refused by their API process from memory: sessions it, or another process (LISTEN/NOTIFY), had just
  seen taken, or that an attempt of its own was asking about at that moment (decision 0014).
- Opening race: an attempt just before the opening answered ${s.opening.beforeOpening.status} \
${s.opening.beforeOpening.code ?? ''}; from the instant on, ${s.opening.granted} of \
${s.opening.total.toLocaleString('en-AU')} attempts were granted in ${s.opening.durationSeconds.toFixed(2)} s; in \
the database ${s.opening.database.heldSlots} held, ${s.opening.database.activeReservations} live, \
${s.opening.database.slotsWithTwoHolders} doubled.
- Sign-in: one argon2id verify takes ${ms(s.signIn.argon2VerifyMs)} here; with \
${s.signIn.concurrentHashesPerProcess} concurrent hash(es) per process and ${m.cores} cores the bound is about \
${rps(s.signIn.boundPerSecond)}.
  @node-rs/argon2's own rate in this run (${s.signIn.argon2RawPerSecond.concurrency} verifies at once, no HTTP): \
${rps(s.signIn.argon2RawPerSecond.before)} just before the storm,
  ${rps(s.signIn.argon2RawPerSecond.after)} just after; the storm reached \
${pct(s.signIn.storm.requestsPerSecond / argon2RawMean)} of their mean, with the read probe running alongside.
  Where the cores went: the API processes spent ${ms(s.signIn.apiCpuMsPerSignIn)} of CPU per sign-in (the verify, \
the request, the session's queries and token, the hash thread's hand-offs),
  and the host's CPUs were ${
    s.signIn.hostBusyDuringStorm === null ? 'of unknown busyness' : `${pct(s.signIn.hostBusyDuringStorm)} ` + `busy`
  } during the storm (the rest of the time: PostgreSQL, nginx, the load generators, the probe).
  At that CPU per sign-in, the API processes alone on every core would allow \
${rps((m.cores * 1000) / s.signIn.apiCpuMsPerSignIn)}.

## Setup

${Object.entries(r.setup)
  .map(([k, v]) => `- ${k}: ${v}`)
  .join('\n')}
`;
}

/** The hold ratio of a request costing exactly one hello-world request plus one pgbench transaction. */
function zeroCostHoldRatio(helloPerSecond: number, pgbenchTps: number): number {
  return 1 / (1 / helloPerSecond + 1 / pgbenchTps) / pgbenchTps;
}
