import path from 'node:path';
import type { Db } from '../../apps/api/src/db/client';
import { medianRound, runLoad, type LoadRequest, type LoadResult } from './load-generator';
import { startBalancer } from './nginx-balancer';
import { REPO_ROOT, startProcesses } from './processes';
import { takeStatementCounts } from './seed-data';

export const READ_ROUNDS = 3;

export interface ReadsScenario {
  /** The median rounds (their latencies come with them). */
  helloWorld: LoadResult;
  availableSlots: LoadResult;
  /** Every round, in the order run. */
  helloRounds: LoadResult[];
  readRounds: LoadResult[];
  /** The statements PostgreSQL ran most over the measured reads. */
  readStatements: Awaited<ReturnType<typeof takeStatementCounts>>;
}

/**
 * Scenario 1 and its ceiling: signed-in customers reading available slots through nginx from the
 * bench's API processes, against a bare Fastify hello-world (as many processes, behind the same
 * nginx), started here and stopped before the next scenario.
 */
export async function runReadsScenario(opts: {
  db: Db;
  nginxBin: string;
  helloPorts: number[];
  helloBalancerPort: number;
  apiUrl: string;
  apiPids: number[];
  reads: LoadRequest[];
  connections: number;
  duration: number;
  /** What the load generator warms up on before the API's rounds. */
  warmUpPath: string;
  tmp: string;
  /** Adds a stop to the bench's cleanups, for a Ctrl-C or a failure while hello-world runs. */
  onCleanup: (stop: () => Promise<void>) => void;
  log: (msg: string) => void;
}): Promise<ReadsScenario> {
  const { db, tmp } = opts;
  const hello = await startProcesses({
    name: 'hello',
    script: path.join(REPO_ROOT, 'bench/drop-day/hello-world.server.ts'),
    cwd: REPO_ROOT,
    ports: opts.helloPorts,
    env: {},
    readyPath: '/hello',
    logDir: tmp,
  });
  opts.onCleanup(() => hello.stop());
  const helloLb = await startBalancer(
    opts.nginxBin,
    path.join(tmp, 'nginx-hello'),
    opts.helloBalancerPort,
    hello.addresses,
  );
  opts.onCleanup(() => helloLb.stop());
  const helloRequests: LoadRequest[] = [{ method: 'GET', path: '/hello' }];
  await runLoad({ url: helloLb.url, connections: opts.connections, duration: 3, requests: helloRequests }, tmp);
  await runLoad({ url: opts.apiUrl, connections: opts.connections, duration: 3, requests: opts.reads }, tmp);
  await takeStatementCounts(db);
  const helloRounds: LoadResult[] = [];
  const readRounds: LoadResult[] = [];
  for (let round = 0; round < READ_ROUNDS; round++) {
    helloRounds.push(
      await runLoad(
        {
          url: helloLb.url,
          connections: opts.connections,
          duration: opts.duration,
          requests: helloRequests,
          warmUpPath: '/hello',
          cpuPids: hello.pids,
        },
        tmp,
      ),
    );
    readRounds.push(
      await runLoad(
        {
          url: opts.apiUrl,
          connections: opts.connections,
          duration: opts.duration,
          requests: opts.reads,
          warmUpPath: opts.warmUpPath,
          cpuPids: opts.apiPids,
        },
        tmp,
      ),
    );
    const [h, a] = [helloRounds[round]!, readRounds[round]!];
    opts.log(
      `  round ${round + 1}: hello-world ${Math.round(h.requestsPerSecond)}/s (${h.serverCpuMicrosPerRequest} µs ` +
        `CPU each), ` +
        (`available-slots ${Math.round(a.requestsPerSecond)}/s (${a.serverCpuMicrosPerRequest} µs CPU each, p99 ` +
          `${a.latencyMs.p99} ms)`),
    );
  }
  const readStatements = await takeStatementCounts(db);
  for (const st of readStatements) opts.log(`    ${st.calls} x ${st.meanMs} ms: ${st.query}`);
  await helloLb.stop();
  await hello.stop();
  return {
    helloWorld: medianRound(helloRounds),
    availableSlots: medianRound(readRounds),
    helloRounds,
    readRounds,
    readStatements,
  };
}
