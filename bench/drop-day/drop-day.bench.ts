/**
 * The drop-day benchmark (issue 7): `npm run bench`. Starts its own PostgreSQL, three API
 * processes and nginx on loopback (ports 4100-4199, temp folders), measures the API against
 * the machine's own ceilings (bare Fastify behind the same nginx, pgbench running the hold's
 * UPDATE), writes bench/reports/drop-day.{json,md} and exits non-zero if a budget fails.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateJwtKey } from '../../apps/api/src/config/secrets';
import { createDb } from '../../apps/api/src/db/client';
import { runMigrations } from '../../apps/api/src/db/migrate';
import { median, runLoad } from './load-generator';
import { runDirectScenario, DIRECT } from './direct.scenario';
import { RACE, RACE_ROUNDS, raceRequestsOf, runHoldRaceScenario } from './hold-race.scenario';
import { ensureNginx, startBalancer } from './nginx-balancer';
import { startPostgres } from './postgres-cluster';
import { API_NODE_FLAGS, benchApiEnv, REPO_ROOT, startProcesses } from './processes';
import { budgetLine, evaluateBudgets } from './drop-day.budgets';
import { runOpeningRace } from './opening-race';
import { READ_ROUNDS, runReadsScenario } from './reads.scenario';
import { describeMachine, writeReports, type Report } from './report';
import {
  appCheckToken,
  availableSlotsReads,
  benchIdTokens,
  createCustomers,
  createSignInCustomers,
  loadBenchSeason,
  pickRaceSlots,
} from './seed-data';
import { runSignInStormScenario, SIGN_IN } from './sign-in-storm.scenario';
import { ensureWrk } from './wrk';

const PORTS = {
  postgres: 4100,
  apiBalancer: 4101,
  helloBalancer: 4102,
  api: [4110, 4111, 4112],
  hello: [4120, 4121, 4122],
  helloDirect: 4123,
  deadStripe: 4198,
  deadSmtp: 4199,
};
const CONNECTIONS = 100;
const DURATION = Number(process.env.BENCH_SECONDS ?? 6);
const DATABASE = 'kringle_bench';
/** What the load generator warms up on (answered without the database or a token). */
const HEALTH = '/api/v1/health';

const cleanups: Array<() => Promise<void>> = [];
let cleaning: Promise<void> | null = null;
const cleanUp = () =>
  (cleaning ??= (async () => {
    for (const fn of cleanups.reverse()) await fn().catch((err: unknown) => console.error('cleanup:', err));
  })());
// `on`, not `once`: Ctrl-C reaches this process twice (from the terminal and relayed by tsx), and
// a second, unhandled SIGINT would kill it before PostgreSQL is stopped.
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (cleaning) return;
    console.error(`\n${signal}: stopping everything the bench started...`);
    void cleanUp().then(() => process.exit(130));
  });
}

const log = (msg: string) => console.log(`[${new Date().toISOString().slice(11, 19)}] ${msg}`);

async function assertPortsFree() {
  const all = [
    PORTS.postgres,
    PORTS.apiBalancer,
    PORTS.helloBalancer,
    ...PORTS.api,
    ...PORTS.hello,
    PORTS.helloDirect,
    PORTS.helloDirect + 1,
  ];
  const busy: number[] = [];
  for (const port of all)
    if (
      await fetch(`http://127.0.0.1:${port}`).then(
        () => true,
        (e: { cause?: { code?: string } }) => e.cause?.code !== 'ECONNREFUSED',
      )
    )
      busy.push(port);
  if (busy.length)
    throw new Error(`Ports ${busy.join(', ')} are in use: is another bench running? Stop it and try again.`);
}

async function main(): Promise<number> {
  const loadAtStart = os.loadavg()[0]!;
  await assertPortsFree();
  const nginx = await ensureNginx();
  const wrk = await ensureWrk();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'kringle-drop-day-'));
  // The postgres user (PostgreSQL's owner when we run as root) must reach its folder inside.
  fs.chmodSync(tmp, 0o755);
  cleanups.push(async () => fs.rmSync(tmp, { recursive: true, force: true }));

  log(`PostgreSQL: initdb in ${tmp}`);
  const pg = await startPostgres(path.join(tmp, 'postgres'), PORTS.postgres);
  cleanups.push(() => pg.stop());
  const admin = createDb(pg.url(), 1);
  await admin.pool.query(`create database ${DATABASE}`);
  await admin.pool.end();
  const databaseUrl = pg.url(DATABASE);
  await runMigrations(databaseUrl);
  const { db, pool } = createDb(databaseUrl, 4);
  cleanups.push(() => pool.end());

  log('Loading the demo season and creating customers');
  const season = await loadBenchSeason(db);
  const jwtKey = await generateJwtKey();
  const idTokens = await benchIdTokens(jwtKey);
  const customers = await createCustomers(db, idTokens, RACE.attempts, 'family');
  const signInCustomers = await createSignInCustomers(db, idTokens, SIGN_IN.customers);
  const raceSlots = await pickRaceSlots(db, RACE.slots);
  await pool.query('vacuum analyze');

  log('Starting 3 API processes and nginx');
  const apiEnv = {
    ...benchApiEnv({
      databaseUrl,
      jwtKey,
      publicUrl: `http://127.0.0.1:${PORTS.apiBalancer}`,
      deadStripePort: PORTS.deadStripe,
      deadSmtpPort: PORTS.deadSmtp,
    }),
    ...(process.env.BENCH_LOG_LEVEL ? { LOG_LEVEL: process.env.BENCH_LOG_LEVEL } : {}),
  };
  // The API as `npm start` and production run it: built first (apps/api/build.mjs).
  execFileSync(process.execPath, ['build.mjs'], { cwd: path.join(REPO_ROOT, 'apps/api'), stdio: 'inherit' });
  const api = await startProcesses({
    name: 'api',
    script: 'dist/start.mjs',
    cwd: path.join(REPO_ROOT, 'apps/api'),
    ports: PORTS.api,
    env: apiEnv,
    readyPath: '/api/v1/ready',
    logDir: tmp,
  });
  cleanups.push(() => api.stop());
  const apiLb = await startBalancer(nginx.bin, path.join(tmp, 'nginx-api'), PORTS.apiBalancer, api.addresses);
  cleanups.push(() => apiLb.stop());
  const appCheck = await appCheckToken(apiLb.url);

  const readRequests = availableSlotsReads(customers, season.targets, appCheck);
  const sanity = await fetch(apiLb.url + readRequests[0]!.path, { headers: readRequests[0]!.headers });
  if (!sanity.ok) throw new Error(`available-slots answered ${sanity.status}: ${await sanity.text()}`);

  // Drop day starts with families already on the session page: each has read availability from
  // every API process once, so each process has verified their ID tokens (see the auth plugin's
  // verified-token cache) before the measured load begins.
  log(`Warm-up: each of ${customers.length} customers reads once from each API process`);
  await Promise.all(
    api.addresses.map((a) =>
      runLoad({ url: `http://${a}`, connections: 30, amount: readRequests.length, requests: readRequests }, tmp),
    ),
  );

  // Each comparison alternates its two sides over READ_ROUNDS (the race: RACE_ROUNDS) rounds and keeps
  // the median round of each, so a burst of load from something else on the machine hits both sides alike.
  log(`Scenario 1 and its ceiling, ${READ_ROUNDS} interleaved rounds of ${DURATION} s at ${CONNECTIONS} connections:`);
  log('  bare Fastify hello-world (3 processes behind the same nginx) vs signed-in customers reading available slots');
  const { helloWorld, availableSlots, helloRounds, readRounds, readStatements } = await runReadsScenario({
    db,
    nginxBin: nginx.bin,
    helloPorts: PORTS.hello,
    helloBalancerPort: PORTS.helloBalancer,
    apiUrl: apiLb.url,
    apiPids: api.pids,
    reads: readRequests,
    connections: CONNECTIONS,
    duration: DURATION,
    warmUpPath: HEALTH,
    tmp,
    onCleanup: (stop) => cleanups.push(stop),
    log,
  });

  log(
    `Scenario 1b, ${DIRECT.rounds} interleaved rounds of ` +
      `${DURATION} s at ${DIRECT.connections} connections, no proxy, wrk ${wrk.version}:`,
  );
  log(
    '  one bare Fastify hello-world process vs one API process: available slots, and their 304 revalidation ' +
      '(If-None-Match)',
  );
  const direct = await runDirectScenario({
    apiAddress: api.addresses[0]!,
    apiPid: api.pids[0]!,
    helloPort: PORTS.helloDirect,
    reads: readRequests,
    duration: DURATION,
    tmp,
    wrkVersion: wrk.version,
    log,
  });

  log(
    `Scenario 2 and its ceiling, ` +
      `${RACE_ROUNDS} interleaved rounds: pgbench runs the hold's conditional UPDATE (${CONNECTIONS} clients,`,
  );
  log(
    `  ${RACE.attempts} transactions on ${RACE.slots} sessions) vs ${RACE.attempts} distinct customers racing for ` +
      `the same ${RACE.slots} sessions`,
  );
  const raceRequests = raceRequestsOf(customers, raceSlots, appCheck);
  const { race, raceRounds, pgbenchTps, pgbenchRuns, raceStatements, pgbenchStatements } = await runHoldRaceScenario({
    db,
    pg,
    database: DATABASE,
    apiUrl: apiLb.url,
    apiPids: api.pids,
    requests: raceRequests,
    connections: CONNECTIONS,
    warmUpPath: HEALTH,
    tmp,
    log,
  });
  const granted = race.granted;
  const raceDb = race.database;

  log(
    `Scenario 2b: the opening, ` +
      `${RACE.attempts} attempts sent from the instant the race sessions' locations open (issue 14)`,
  );
  const opening = await runOpeningRace({
    db,
    url: apiLb.url,
    requests: raceRequests,
    connections: CONNECTIONS,
    cpuPids: api.pids,
    tmp,
    warmUpPath: HEALTH,
  });
  log(
    `  before the opening: ` +
      (`${opening.beforeOpening.status} ${opening.beforeOpening.code}; from it: ${opening.granted} granted in ` +
        (`${opening.durationSeconds.toFixed(2)} s (p99 ${opening.latencyMs.p99} ms), database ` +
          `${JSON.stringify(opening.database)}`)),
  );

  log('Scenario 3: sign-in storm with reads alongside');
  const signIn = await runSignInStormScenario({
    apiUrl: apiLb.url,
    apiPids: api.pids,
    apiProcesses: PORTS.api.length,
    appCheck,
    customers: signInCustomers,
    reads: readRequests,
    duration: DURATION,
    warmUpPath: HEALTH,
    tmp,
    log,
  });
  const { storm, readsDuringStorm } = signIn;

  const { budgets, readRatio, holdRatio, directRatios } = evaluateBudgets({
    connections: CONNECTIONS,
    race: RACE,
    helloWorld,
    availableSlots,
    pgbenchTps,
    raceMedian: race,
    raceRounds,
    opening,
    readRounds,
    storm,
    readsDuringStorm,
    direct,
  });

  const report: Report = {
    machine: describeMachine(pg.version, nginx.version, loadAtStart),
    setup: {
      apiProcesses: PORTS.api.length,
      connections: CONNECTIONS,
      durationSeconds: DURATION,
      rounds:
        `${READ_ROUNDS} for reads, ${RACE_ROUNDS} for the race, each interleaved with its ceiling; the median ` +
        `round is reported (the hold p99 is the median of the rounds' p99s)`,
      signInConnections: SIGN_IN.connections,
      probeConnections: SIGN_IN.probeConnections,
      probeRate: `${SIGN_IN.probeRate} reads/s in all, paced (the probe beside the sign-in storm)`,
      customers: customers.length + signInCustomers.length,
      warmUp:
        'every racing customer reads once from each API process before any measurement (families on the page before ' +
        'the drop), then 3 s of load on each target, and one unmeasured race and pgbench round',
      sessionsInSeason: season.slots,
      apiEntry:
        `apps/api/dist/start.mjs on node ` +
        `${API_NODE_FLAGS.join(' ')}, built by apps/api/build.mjs (as npm start and production run it)`,
      apiEnvironment:
        'NODE_ENV=production, APP_CHECK_MODE=enforce, RATE_LIMIT_MODE=off (one client IP), TRUST_PROXY=true, ' +
        'JOBS_ENABLED=true in every process',
      apiLogLevel: process.env.BENCH_LOG_LEVEL ?? 'info (production default)',
      databasePoolPerProcess: 'DATABASE_POOL_SIZE default',
      nginx: 'bench/nginx/kringle.conf.template (the file docs/deploy.md installs)',
      postgres: 'bench/drop-day/postgres-cluster.ts (fsync and synchronous_commit on)',
      loadGenerator: `autocannon in its own process, warmed up on a trivial route before each measured run; ${
        [...helloRounds, ...readRounds, ...raceRounds, storm, readsDuringStorm].every((r) => r.raisedPriority)
          ? 'raised priority (niceness -10), so it reads answers as they arrive (decision 0015)'
          : 'normal priority (raising it needs root): its waits for a core count as latency (decision 0015)'
      }`,
    },
    scenarios: {
      helloWorld,
      availableSlots,
      race: {
        ...race,
        slots: RACE.slots,
        attempts: RACE.attempts,
        granted,
        database: raceDb,
        holdQueriesPerRound: raceRounds.map((r) => r.holdQueries),
      },
      pgbench: { tps: pgbenchTps, runs: pgbenchRuns, clients: CONNECTIONS, transactions: RACE.attempts },
      opening,
      rounds: {
        helloWorld: helloRounds.map((r) => Math.round(r.requestsPerSecond)),
        availableSlots: readRounds.map((r) => Math.round(r.requestsPerSecond)),
        raceAttemptsPerSecond: raceRounds.map((r) => Math.round(r.requestsPerSecond)),
        pgbenchTps: pgbenchRuns.map(Math.round),
        directHelloWorld: direct.rounds.helloWorld,
        directHelloWorldLargeYoung: direct.rounds.helloWorldLargeYoung,
        directHelloWorldSameRequest: direct.rounds.helloWorldSameRequest,
        directAvailableSlots: direct.rounds.availableSlots,
        directNotModified: direct.rounds.notModified,
      },
      serverCpuMicrosPerRequest: {
        helloWorld: median(helloRounds.map((r) => r.serverCpuMicrosPerRequest!)),
        availableSlots: median(readRounds.map((r) => r.serverCpuMicrosPerRequest!)),
        raceAttempt: median(raceRounds.map((r) => r.serverCpuMicrosPerRequest!)),
      },
      signIn,
      direct,
    },
    statements: { availableSlots: readStatements, race: raceStatements, pgbench: pgbenchStatements },
    ratios: { availableSlotsOverHelloWorld: readRatio, holdsOverPgbench: holdRatio, ...directRatios },
    budgets,
  };
  const files = writeReports(report);
  console.log('\nBudgets:');
  for (const b of budgets) console.log(budgetLine(b));
  console.log(`\nReports: ${path.relative(REPO_ROOT, files.md)}, ${path.relative(REPO_ROOT, files.json)}`);
  return budgets.every((b) => b.pass) ? 0 : 1;
}

main().then(
  async (code) => {
    await cleanUp();
    process.exit(code);
  },
  async (err: unknown) => {
    console.error('\nThe drop-day bench failed:', err instanceof Error ? err.message : err);
    await cleanUp();
    process.exit(2);
  },
);
