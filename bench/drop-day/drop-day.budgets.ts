import { median, type LoadResult } from './load-generator';
import type { DirectScenario } from './direct.scenario';
import type { OpeningRace } from './opening-race';
import { pct, type Budget } from './report';

export interface RaceRound extends LoadResult {
  granted: number;
  /** Attempts that reached PostgreSQL, alone or in a batch; the rest were refused from memory (decision 0014). */
  holdQueries: number;
  database: { heldSlots: number; activeReservations: number; slotsWithTwoHolders: number };
}

type DirectRuns = Pick<DirectScenario, 'helloWorld' | 'availableSlots' | 'notModified' | 'cpu'>;
const directRatiosOf = (d: DirectRuns) => ({
  directSlots: d.availableSlots.requestsPerSecond / d.helloWorld.requestsPerSecond,
  directNotModified: d.notModified.requestsPerSecond / d.helloWorld.requestsPerSecond,
});

/** Issue 41's limits: the API's CPU per answer over bare Fastify's, in the same run. */
export const DIRECT_CPU = { availableSlots: 1.6, notModified: 1.25 };
const times = (x: number) => `${x.toFixed(2)}×`;

/**
 * The direct budgets (issues 21 and 41): in `npm run bench`, and alone in bench:direct and
 * bench:live. The API is CPU-bound on these reads, so its CPU per answer against bare Fastify's in
 * the same run is the budget: that ratio stays when the host changes, where throughput ratios
 * followed hello-world's own speed (decisions 0038, 0039).
 */
export function directBudgets(d: DirectRuns): Budget[] {
  const slots = d.cpu.availableSlots / d.cpu.helloWorld;
  const notModified = d.cpu.notModified / d.cpu.helloWorld;
  return [
    {
      name: "Direct, one process each (wrk): available slots, CPU per answer over bare Fastify's",
      target: `<= ${times(DIRECT_CPU.availableSlots)}`,
      measured: `${times(slots)} (${d.cpu.availableSlots} µs over ${d.cpu.helloWorld} µs)`,
      pass: slots <= DIRECT_CPU.availableSlots,
    },
    {
      name: "Direct, one process each (wrk): 304 revalidation, CPU per answer over bare Fastify's",
      target: `<= ${times(DIRECT_CPU.notModified)}`,
      measured: `${times(notModified)} (${d.cpu.notModified} µs over ${d.cpu.helloWorld} µs)`,
      pass: notModified <= DIRECT_CPU.notModified,
    },
    {
      name: 'Direct, one process each (wrk): p99 at 50 connections, available slots / 304',
      target: '< 25 ms',
      measured: `${d.availableSlots.latencyMs.p99} ms / ${d.notModified.latencyMs.p99} ms`,
      pass: d.availableSlots.latencyMs.p99 < 25 && d.notModified.latencyMs.p99 < 25,
    },
  ];
}

/**
 * Issue 21's throughput ratios, kept as targets that follow from the CPU budgets (a process that
 * costs 1.6× hello-world's CPU per answer reaches about 60% of its answers per second when both
 * have a core to themselves): reported, not failed on, since they also move with how the host
 * shares its cores between wrk and the server.
 */
export function directTargets(d: DirectRuns): Budget[] {
  const { directSlots, directNotModified } = directRatiosOf(d);
  return [
    {
      name: 'Direct (wrk): available slots over bare Fastify, answers per second',
      target: '>= 60%',
      measured: pct(directSlots),
      pass: directSlots >= 0.6,
    },
    {
      name: 'Direct (wrk): 304 revalidation over bare Fastify, answers per second',
      target: '>= 80%',
      measured: pct(directNotModified),
      pass: directNotModified >= 0.8,
    },
  ];
}

/** The line each bench prints for a target that is reported, not failed on. */
export const targetLine = (b: Budget) =>
  `  ${b.pass ? 'MET ' : 'MISS'}  ${b.name}: ${b.measured} (target ${b.target}; not a budget)`;

/** The line each bench prints for a budget. */
export const budgetLine = (b: Budget) => `  ${b.pass ? 'PASS' : 'FAIL'}  ${b.name}: ${b.measured} (target ${b.target})`;

/** Issue 7's budgets, plus the checks that keep the figures honest (no errors hiding in them). */
export function evaluateBudgets(m: {
  connections: number;
  race: { attempts: number; slots: number };
  helloWorld: LoadResult;
  availableSlots: LoadResult;
  pgbenchTps: number;
  raceMedian: LoadResult;
  raceRounds: RaceRound[];
  opening: OpeningRace;
  readRounds: LoadResult[];
  storm: LoadResult;
  readsDuringStorm: LoadResult;
  direct: DirectScenario;
}): {
  budgets: Budget[];
  readRatio: number;
  holdRatio: number;
  directRatios: { directAvailableSlotsOverHelloWorld: number; directNotModifiedOverHelloWorld: number };
} {
  const readRatio = m.availableSlots.requestsPerSecond / m.helloWorld.requestsPerSecond;
  const holdRatio = m.raceMedian.requestsPerSecond / m.pgbenchTps;
  // A race lasts about a second: one round's p99 is a handful of requests, so the rounds' median is used.
  const holdP99 = median(m.raceRounds.map((r) => r.latencyMs.p99));
  const { attempts, slots } = m.race;
  const exact = (r: RaceRound) =>
    r.granted === slots &&
    r.database.heldSlots === slots &&
    r.database.activeReservations === slots &&
    r.database.slotsWithTwoHolders === 0 &&
    r.total === attempts &&
    (r.statusCodes['409'] ?? 0) === attempts - slots;
  const okOnly = (r: LoadResult, ...ok: string[]) =>
    Object.keys(r.statusCodes).every((c) => ok.includes(c)) && r.errors === 0 && r.timeouts === 0;
  const clean =
    m.readRounds.every((r) => okOnly(r, '200')) &&
    [...m.raceRounds, m.opening].every((r) => okOnly(r, '201', '409')) &&
    okOnly(m.storm, '200') &&
    okOnly(m.readsDuringStorm, '200');
  const d = m.direct;
  const { directSlots, directNotModified } = directRatiosOf(d);
  const directClean = [d.helloWorld, d.availableSlots, d.notModified].every((r) => okOnly(r, '2xx/3xx'));
  const budgets: Budget[] = [
    { name: 'Available slots over bare Fastify', target: '>= 40%', measured: pct(readRatio), pass: readRatio >= 0.4 },
    ...directBudgets(d),
    {
      name: 'Hold attempts over the pgbench ceiling',
      target: '>= 50%',
      measured: pct(holdRatio),
      pass: holdRatio >= 0.5,
    },
    {
      name: `Available slots p99 at ${m.connections} connections`,
      target: '< 100 ms',
      measured: `${m.availableSlots.latencyMs.p99} ms`,
      pass: m.availableSlots.latencyMs.p99 < 100,
    },
    {
      name: `Hold p99 at ${m.connections} connections`,
      target: '< 100 ms',
      measured: `${holdP99} ms (median of the rounds: ${m.raceRounds.map((r) => r.latencyMs.p99).join(' / ')})`,
      pass: holdP99 < 100,
    },
    {
      name: `${attempts.toLocaleString('en-AU')} attempts on ${slots} sessions`,
      target: `exactly ${slots} holds, every round`,
      measured:
        `per round: ${m.raceRounds.map((r) => r.granted).join(' / ')} granted (201); in the database ` +
        (`${m.raceRounds.map((r) => r.database.heldSlots).join(' / ')} held, ` +
          (`${m.raceRounds.map((r) => r.database.activeReservations).join(' / ')} live, ` +
            `${m.raceRounds.map((r) => r.database.slotsWithTwoHolders).join(' / ')} doubled`)),
      pass: m.raceRounds.every(exact),
    },
    {
      name: `${attempts.toLocaleString('en-AU')} attempts from the instant sales open`,
      target: `409 SALES_NOT_OPEN before it; exactly ${slots} holds after`,
      measured:
        `before: ${m.opening.beforeOpening.status} ${m.opening.beforeOpening.code ?? ''}; after: ` +
        (`${m.opening.granted} granted in ${m.opening.durationSeconds.toFixed(2)} s, ${m.opening.database.heldSlots} ` +
          `held, ${m.opening.database.slotsWithTwoHolders} doubled`),
      pass:
        m.opening.beforeOpening.status === 409 && m.opening.beforeOpening.code === 'SALES_NOT_OPEN' && exact(m.opening),
    },
    {
      name: 'Reads stay responsive during a sign-in storm (p99)',
      target: '< 50 ms',
      measured: `${m.readsDuringStorm.latencyMs.p99} ms`,
      pass: m.readsDuringStorm.latencyMs.p99 < 50,
    },
    {
      name: 'No unexpected status codes, socket errors or timeouts',
      target: 'reads 200, holds 201/409, sign-ins 200; wrk: 2xx/3xx only',
      measured: clean && directClean ? 'none' : 'see the scenarios table',
      pass: clean && directClean,
    },
  ];
  return {
    budgets,
    readRatio,
    holdRatio,
    directRatios: {
      directAvailableSlotsOverHelloWorld: directSlots,
      directNotModifiedOverHelloWorld: directNotModified,
    },
  };
}
