/**
 * `npm run bench:direct -- [runs]`: only the direct scenario (direct.scenario.ts), on its own
 * PostgreSQL and the built API, in about a minute a run. Each run starts a fresh API process and
 * fresh hello-world processes (each process settles in its own state, decision 0038), on the same
 * database and build. Prints the budgets with the host's load average and writes
 * bench/reports/direct.md and .json. With one run it exits 1 when a budget fails; with more (the
 * spread, `npm run bench:spread -- 10 --direct`) when a budget held in fewer than 9 runs of 10.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { startBenchDatabase } from './bench-database';
import { BROWSER_ACCEPT_ENCODING, DIRECT, runDirectScenario, type DirectScenario } from './direct.scenario';
import { budgetLine, directBudgets, directTargets, targetLine } from './drop-day.budgets';
import { runLoad } from './load-generator';
import { benchApiEnv, REPO_ROOT, startProcesses } from './processes';
import { describeMachine, type Budget } from './report';
import { appCheckToken, availableSlotsReads, createCustomers, withFreshTokens } from './seed-data';
import { ensureWrk } from './wrk';

const PORTS = { postgres: 4100, api: 4110, hello: 4123 };
const SECONDS = Number(process.env.BENCH_SECONDS ?? 4);
const RUNS = Number(process.argv[2] ?? 1);
if (!Number.isInteger(RUNS) || RUNS < 1) throw new Error('usage: npm run bench:direct -- [runs, 1 by default]');
const REQUIRED_SHARE = 0.9;
/**
 * BENCH_API_NODE_FLAGS='--flag ...': the API processes start with these Node flags (`--trace-gc` writes to their log in
 * the bench's temp folder).
 */
const API_NODE_FLAGS = (process.env.BENCH_API_NODE_FLAGS ?? '').split(' ').filter(Boolean);
const API_DIR = path.join(REPO_ROOT, 'apps/api');
const REPORTS = path.join(REPO_ROOT, 'bench/reports');
const load1 = () => Math.round(os.loadavg()[0]! * 100) / 100;
const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

interface Run {
  run: number;
  loadAverage: { start: number; end: number };
  scenario: DirectScenario;
  budgets: Budget[];
  targets: Budget[];
}

const wrk = await ensureWrk();
const loadAtStart = load1();
const runs: Run[] = [];
const { tmp, databaseUrl, db, endPool, season, jwtKey, idTokens, stop } = await startBenchDatabase(
  'direct',
  PORTS.postgres,
);
try {
  const customers = await createCustomers(db, idTokens, 1000, 'direct');
  await db.execute(sql`vacuum analyze`);
  await endPool();
  execFileSync(process.execPath, ['build.mjs'], { cwd: API_DIR, stdio: 'inherit' });
  const env = benchApiEnv({
    databaseUrl,
    jwtKey,
    publicUrl: `http://127.0.0.1:${PORTS.api}`,
    deadStripePort: 4198,
    deadSmtpPort: 4199,
  });
  for (let run = 1; run <= RUNS; run++) {
    const start = load1();
    const api = await startProcesses({
      name: `api-${run}`,
      script: 'dist/start.mjs',
      cwd: API_DIR,
      ports: [PORTS.api],
      env,
      readyPath: '/api/v1/ready',
      logDir: tmp,
      nodeFlags: API_NODE_FLAGS,
    });
    try {
      // Tokens issued for this run: the first run's would lapse (15 minutes) during a spread.
      const reads = availableSlotsReads(
        await withFreshTokens(idTokens, customers),
        season.targets,
        await appCheckToken(`http://127.0.0.1:${PORTS.api}`),
      );
      // Every family's token verified once, as on the page before the drop.
      await runLoad(
        { url: `http://127.0.0.1:${PORTS.api}`, connections: 30, amount: reads.length, requests: reads },
        tmp,
      );
      log(`Direct scenario, run ${run} of ${RUNS}: load average ${start} at its start, wrk ${wrk.version}`);
      const d = await runDirectScenario({
        apiAddress: api.addresses[0]!,
        apiPid: api.pids[0]!,
        helloPort: PORTS.hello,
        reads,
        duration: SECONDS,
        tmp,
        wrkVersion: wrk.version,
        log,
      });
      const r: Run = {
        run,
        loadAverage: { start, end: load1() },
        scenario: d,
        budgets: directBudgets(d),
        targets: directTargets(d),
      };
      runs.push(r);
      console.log(
        `  CPU per answer (median of ` +
          `${d.cpuRounds.helloWorld.length} rounds): hello-world ` +
          `${d.cpu.helloWorld} µs, available slots ` +
          `${d.cpu.availableSlots} µs, 304 ${d.cpu.notModified} µs; identity (no Accept-Encoding, not a budget) ` +
          `${d.cpu.identity} µs, ${(d.cpu.identity / d.cpu.helloWorld).toFixed(2)}×; hello-world with a 16 MB ` +
          `young ` +
          `generation ${d.cpu.helloWorldLargeYoung} µs (not a budget, decision 0039); hello-world sent the 304's ` +
          `request ${d.cpu.helloWorldSameRequest} µs, the 304 over it ` +
          `${(d.cpu.notModified / d.cpu.helloWorldSameRequest).toFixed(2)}× (not a budget, decision 0077)`,
      );
      for (const b of r.budgets) console.log(budgetLine(b));
      for (const b of r.targets) console.log(targetLine(b));
    } finally {
      await api.stop();
    }
  }
} finally {
  await stop();
}

const names = runs[0]!.budgets.map((b) => b.name);
const held = names.map((name) => {
  const passes = runs.filter((r) => r.budgets.find((b) => b.name === name)!.pass).length;
  return { name, passes, held: RUNS === 1 ? passes === 1 : passes >= Math.ceil(RUNS * REQUIRED_SHARE) };
});
const machine = describeMachine('bench PostgreSQL', 'none (no proxy)', loadAtStart);
const cell = (
  d: DirectScenario,
  k: 'helloWorld' | 'helloWorldSameRequest' | 'availableSlots' | 'notModified' | 'identity',
) => `${Math.round(d[k].requestsPerSecond).toLocaleString('en-AU')}/s, ${d.cpu[k]} µs`;
const md = `# Direct read budgets: \`npm run bench:direct${RUNS > 1 ? ` -- ${RUNS}` : ''}\`

Commit \`${machine.commit}\`, ${machine.date}, ${machine.cpu}, ${machine.cores} cores, Node ${machine.node}; load \
average
${loadAtStart} at the start and ${machine.loadAverage.end} at the end. One API process and bare Fastify \
hello-world, no proxy,
wrk ${wrk.version} at 50 connections, ${SECONDS} s rounds interleaved (hello-world, hello-world sent the 304's \
request, available slots, 304, identity) ${DIRECT.rounds} times per run;
each figure is the median round. The reads carry Chromium's \`Accept-Encoding: ${BROWSER_ACCEPT_ENCODING}\`, as every
family's browser does (decision 0072); "identity" is the same reads without it (the 9.6 kB plain JSON), reported, \
not a budget. CPU per answer is the server process's user + system time over the answers it gave.
Each API round starts with 1 s of the same reads, reported apart and not budgeted: the API idled through the \
hello-world rounds,
past its availability answers' 1 s life, and that first second is spent refilling the cache (decision 0073).
${
  runs[0]?.scenario.placement
    ? `The servers ran on core ` +
      `${runs[0].scenario.placement.server} and wrk on ${runs[0].scenario.placement.wrk} (decision 0071).`
    : 'The servers and wrk shared the cores (BENCH_DIRECT_PIN=0).'
}
${
  RUNS > 1
    ? `A budget holds when it passed in at least ` + `${REQUIRED_SHARE * 100}% of the runs (issue 41: 9 of 10).\n`
    : ''
}
| budget | target | passed | held |
|---|---|---|---|
${held
  .map(
    (h) =>
      `| ${h.name} | ${runs[0]!.budgets.find((b) => b.name === h.name)!.target} | ${h.passes} of ` +
      `${RUNS} | ${h.held ? 'yes' : '**no**'} |`,
  )
  .join('\n')}

## Each run

| run | load at start | hello-world | available slots | 304 | slots CPU ratio | 304 CPU ratio | 304 over \
hello-world sent its request (not a budget) | p99 slots / 304 | throughput ratios (targets, not budgets) | identity \
(not a budget) | first second after idle: p99 median / worst (not a budget) |
|---|---|---|---|---|---|---|---|---|---|---|---|
${runs
  .map(
    (r) =>
      `| ${r.run} | ${r.loadAverage.start} | ${cell(r.scenario, 'helloWorld')} | ` +
      (`${cell(r.scenario, 'availableSlots')} | ${cell(r.scenario, 'notModified')} | ` +
        (`${r.budgets[0]!.pass ? '' : '**miss** '}${r.budgets[0]!.measured.split(' ')[0]} | ` +
          (`${r.budgets[1]!.pass ? '' : '**miss** '}${r.budgets[1]!.measured.split(' ')[0]} | ` +
            (`${(r.scenario.cpu.notModified / r.scenario.cpu.helloWorldSameRequest).toFixed(2)}× (` +
              (`${cell(r.scenario, 'helloWorldSameRequest')}) | ` +
                (`${r.budgets[2]!.pass ? '' : '**miss** '}${r.budgets[2]!.measured} | ` +
                  (`${r.targets.map((t) => t.measured).join(' / ')} | ${cell(r.scenario, 'identity')}, ` +
                    (`${(r.scenario.cpu.identity / r.scenario.cpu.helloWorld).toFixed(2)}× | ` +
                      `${r.scenario.coldStart.latencyMs.p99} / ${r.scenario.coldStartWorstP99} ms |`)))))))),
  )
  .join('\n')}
`;
fs.writeFileSync(path.join(REPORTS, 'direct.md'), md);
fs.writeFileSync(
  path.join(REPORTS, 'direct.json'),
  `${JSON.stringify(
    { machine, seconds: SECONDS, held, runs: runs.map((r) => ({ ...r, scenario: { ...r.scenario, wrk: undefined } })) },
    null,
    2,
  )}\n`,
);
console.log(
  `\n${RUNS > 1 ? `The spread over ${RUNS} runs` : 'The run'} (commit ${machine.commit}, load average ` +
    `${loadAtStart} at the start, ${machine.loadAverage.end} at the end):`,
);
for (const h of held) console.log(`  ${h.held ? 'HELD' : 'MISS'}  ${h.name}: ${h.passes} of ${RUNS}`);
console.log('Report: bench/reports/direct.md');
process.exit(held.every((h) => h.held) && runs.length === RUNS ? 0 : 1);
