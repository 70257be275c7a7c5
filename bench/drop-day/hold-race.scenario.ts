import path from 'node:path';
import type { Db } from '../../apps/api/src/db/client';
import type { RaceRound } from './drop-day.budgets';
import { median, medianRound, runLoad, type LoadRequest } from './load-generator';
import { pgbench, type PostgresCluster } from './postgres-cluster';
import { REPO_ROOT } from './processes';
import { countRaceHolds, resetRaceSlots, takeStatementCounts, type BenchCustomer } from './seed-data';

/** The race lasts about a second, so it gets more rounds than the reads to steady its median. */
export const RACE_ROUNDS = 5;
export const RACE = { attempts: 5000, slots: 300 };

type Statements = Awaited<ReturnType<typeof takeStatementCounts>>;

/** One hold attempt per customer (the plain race and the opening send the same list). */
export function raceRequestsOf(customers: BenchCustomer[], raceSlots: string[], appCheck: string): LoadRequest[] {
  // Customer i goes for session i*7 mod 300: each session's racers are spread over the run.
  return customers.map((c, i) => ({
    method: 'POST',
    path: '/api/v1/bookings/reservation',
    headers: { authorization: c.authorization, 'x-app-check': appCheck },
    body: JSON.stringify({ slotId: raceSlots[(i * 7) % RACE.slots] }),
  }));
}

export interface HoldRaceScenario {
  /** The median race round (its latencies come with it), and every measured round in order. */
  race: RaceRound;
  raceRounds: RaceRound[];
  pgbenchTps: number;
  pgbenchRuns: number[];
  /** The statements PostgreSQL ran most in the last round of each side. */
  raceStatements: Statements;
  pgbenchStatements: Statements;
}

/**
 * Scenario 2 and its ceiling: pgbench runs the hold's conditional UPDATE (hold-claim.pgbench.sql)
 * against RACE.attempts distinct customers racing through nginx for the same RACE.slots sessions,
 * RACE_ROUNDS interleaved rounds. Every round, warm-up included, must end with exactly one holder
 * per session (the budgets check the measured ones; a bad warm-up stops the bench).
 */
export async function runHoldRaceScenario(opts: {
  db: Db;
  pg: PostgresCluster;
  database: string;
  apiUrl: string;
  apiPids: number[];
  requests: LoadRequest[];
  connections: number;
  warmUpPath: string;
  tmp: string;
  log: (msg: string) => void;
}): Promise<HoldRaceScenario> {
  const { db, connections } = opts;
  const script = path.join(REPO_ROOT, 'bench/drop-day/hold-claim.pgbench.sql');
  const pgbenchRuns: number[] = [];
  const raceRounds: RaceRound[] = [];
  let raceStatements: Statements = [];
  let pgbenchStatements: Statements = [];
  // Round 0 is a warm-up of both sides (the hold route's code is still cold after the reads, and
  // a race lasts about two seconds); it is checked for exactly-300 like the others, not measured.
  for (let round = 0; round <= RACE_ROUNDS; round++) {
    const warmUp = round === 0;
    await resetRaceSlots(db);
    await takeStatementCounts(db);
    const run = await pgbench(opts.pg, opts.database, script, {
      clients: connections,
      transactionsPerClient: RACE.attempts / connections,
    });
    pgbenchStatements = await takeStatementCounts(db, 1);
    if (run.failed) throw new Error(`pgbench: ${run.failed} failed transactions`);
    if (!warmUp) pgbenchRuns.push(run.tps);
    // Frees the sessions and ends the previous round's holds, so every racer starts without one.
    await resetRaceSlots(db);
    await takeStatementCounts(db);
    const race = await runLoad(
      {
        url: opts.apiUrl,
        connections,
        amount: RACE.attempts,
        requests: opts.requests,
        warmUpPath: opts.warmUpPath,
        cpuPids: opts.apiPids,
      },
      opts.tmp,
    );
    raceStatements = await takeStatementCounts(db);
    // One row per attempt: the one-statement hold, or its batch (hold-batcher.ts) answering many.
    const holdQueries =
      (raceStatements.find((st) => st.query.startsWith('with upcoming as'))?.calls ?? 0) +
      (raceStatements.find((st) => st.query.startsWith('with req as'))?.rows ?? 0);
    const raceRound: RaceRound = {
      ...race,
      granted: race.statusCodes['201'] ?? 0,
      holdQueries,
      database: await countRaceHolds(db),
    };
    if (warmUp) {
      if (raceRound.granted !== RACE.slots || raceRound.database.slotsWithTwoHolders !== 0)
        throw new Error(`warm-up race: ${JSON.stringify(raceRound.database)}, ${raceRound.granted} granted`);
    } else raceRounds.push(raceRound);
    opts.log(
      `  ${warmUp ? 'warm-up' : `round ${round}`}: pgbench ${Math.round(run.tps)} tps, race ` +
        (`${Math.round(race.requestsPerSecond)} attempts/s (${race.serverCpuMicrosPerRequest} µs CPU each, p99 ` +
          `${race.latencyMs.p99} ms), ${raceRound.granted} granted, ${holdQueries} attempts reached `) +
        `PostgreSQL, database ${JSON.stringify(raceRound.database)}`,
    );
  }
  for (const st of [...pgbenchStatements, ...raceStatements])
    opts.log(`    ${st.calls} x ${st.meanMs} ms: ${st.query}`);
  return {
    race: medianRound(raceRounds),
    raceRounds,
    pgbenchTps: median(pgbenchRuns),
    pgbenchRuns,
    raceStatements,
    pgbenchStatements,
  };
}
