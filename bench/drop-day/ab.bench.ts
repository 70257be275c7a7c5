/**
 * `npm run bench:ab -- <before> <after>`: two builds of the API side by side, one process each on
 * the same PostgreSQL, under the same cached availability reads, in alternating rounds (ABBA ABBA
 * ABBA) so the host's swings hit both alike. Prints each side's median throughput, CPU per request
 * and p99. Paths are relative to apps/api and must stay inside it (the API finds its folder from
 * its entry), e.g. before a change `node build.mjs dist/before/start.mjs`, after it `node build.mjs`,
 * then `npm run bench:ab -- dist/before/start.mjs dist/start.mjs`.
 */
import { sql } from 'drizzle-orm';
import { startBenchDatabase } from './bench-database';
import { median, runLoad, type LoadResult } from './load-generator';
import { startAbSides } from './processes';
import { appCheckToken, availableSlotsReads, createCustomers } from './seed-data';

const [before, after] = process.argv.slice(2);
if (!before || !after) throw new Error('usage: npm run bench:ab -- <before entry> <after entry> (relative to apps/api)');
const ABBA = ['before', 'after', 'after', 'before'] as const;
const ROUNDS = [...ABBA, ...ABBA, ...ABBA];
const SECONDS = 4;
const CONNECTIONS = 100;
const PORTS = { postgres: 4100, before: 4110, after: 4111 };

const { tmp, databaseUrl, db, endPool, season, jwtKey, idTokens, stop } = await startBenchDatabase('ab', PORTS.postgres);
try {
  const customers = await createCustomers(db, idTokens, 1000, 'ab');
  await db.execute(sql`vacuum analyze`);
  await endPool();

  const sides = await startAbSides({ databaseUrl, jwtKey, logDir: tmp, scripts: { before, after }, ports: PORTS });
  try {
    const appCheck = await appCheckToken(`http://127.0.0.1:${PORTS.before}`);
    const requests = availableSlotsReads(customers, season.targets, appCheck);
    const load = (side: 'before' | 'after', measured: boolean) =>
      runLoad({ url: `http://127.0.0.1:${PORTS[side]}`, connections: CONNECTIONS, duration: SECONDS, requests, ...(measured ? { cpuPids: sides[side].pids } : {}) }, tmp);
    await load('before', false);
    await load('after', false);
    const results: Record<'before' | 'after', LoadResult[]> = { before: [], after: [] };
    for (const side of ROUNDS) {
      const r = await load(side, true);
      if (Object.keys(r.statusCodes).some((code) => code !== '200') || r.errors) throw new Error(`${side}: ${JSON.stringify(r.statusCodes)}, ${r.errors} errors`);
      results[side].push(r);
      console.log(`${side.padEnd(6)} ${Math.round(r.requestsPerSecond)}/s, ${r.serverCpuMicrosPerRequest} µs CPU each, p99 ${r.latencyMs.p99} ms`);
    }
    console.log(`\nMedians of ${ROUNDS.length / 2} rounds each, ${CONNECTIONS} connections, ${SECONDS} s per round:`);
    for (const side of ['before', 'after'] as const) {
      const rs = results[side];
      console.log(`  ${side.padEnd(6)} ${median(rs.map((r) => Math.round(r.requestsPerSecond)))}/s, ${median(rs.map((r) => r.serverCpuMicrosPerRequest!))} µs CPU each, p99 ${median(rs.map((r) => r.latencyMs.p99))} ms`);
    }
  } finally {
    await sides.before.stop();
    await sides.after.stop();
  }
} finally {
  await stop();
}
