/**
 * `npm run bench:storm-ab -- <before> <after>`: two builds of the API, one process each on the same
 * PostgreSQL, under a sign-in storm (real argon2id) with a read probe on the same process, in
 * alternating rounds (ABBA ABBA). Prints each side's sign-ins per second and the probe's p99, and
 * the probe's p99 without the storm. Builds as for bench:ab (ab.bench.ts's header).
 */
import os from 'node:os';
import { startBenchDatabase } from './bench-database';
import { median, runLoad, type LoadRequest, type LoadResult } from './load-generator';
import { startAbSides } from './processes';
import {
  appCheckToken,
  availableSlotsReads,
  createCustomers,
  createSignInCustomers,
  SIGN_IN_PASSWORD,
} from './seed-data';

const [before, after] = process.argv.slice(2);
if (!before || !after)
  throw new Error('usage: npm run bench:storm-ab -- <before entry> <after entry> (relative to apps/api)');
const ROUNDS = ['before', 'after', 'after', 'before', 'before', 'after', 'after', 'before'] as const;
const SECONDS = 5;
const PORTS = { postgres: 4100, before: 4110, after: 4111 };
const load1 = () => os.loadavg()[0]!.toFixed(2);

const { tmp, databaseUrl, db, endPool, season, jwtKey, idTokens, stop } = await startBenchDatabase(
  'storm-ab',
  PORTS.postgres,
);
try {
  const readers = await createCustomers(db, idTokens, 500, 'storm-ab');
  const signIns = await createSignInCustomers(db, idTokens, 200);
  await endPool();

  const sides = await startAbSides({ databaseUrl, jwtKey, logDir: tmp, scripts: { before, after }, ports: PORTS });
  try {
    const appCheck = await appCheckToken(`http://127.0.0.1:${PORTS.before}`);
    const reads = availableSlotsReads(readers, season.targets, appCheck);
    const storm: LoadRequest[] = signIns.map((c) => ({
      method: 'POST',
      path: '/api/v1/auth/sign-in',
      headers: { 'x-app-check': appCheck },
      body: JSON.stringify({ email: c.email, password: SIGN_IN_PASSWORD }),
    }));
    const url = (side: 'before' | 'after') => `http://127.0.0.1:${PORTS[side]}`;
    for (const side of ['before', 'after'] as const)
      await runLoad({ url: url(side), connections: 20, amount: reads.length, requests: reads }, tmp);
    const results: Record<'before' | 'after', { storm: LoadResult; reads: LoadResult; alone: LoadResult }[]> = {
      before: [],
      after: [],
    };
    console.log(`load average ${load1()} at the start`);
    for (const side of ROUNDS) {
      const alone = await runLoad({ url: url(side), connections: 10, duration: SECONDS, requests: reads }, tmp);
      const [s, r] = await Promise.all([
        runLoad({ url: url(side), connections: 16, duration: SECONDS, requests: storm }, tmp),
        runLoad({ url: url(side), connections: 10, duration: SECONDS, requests: reads }, tmp),
      ]);
      if (Object.keys(s.statusCodes).some((c) => c !== '200') || Object.keys(r.statusCodes).some((c) => c !== '200'))
        throw new Error(`${side}: ${JSON.stringify(s.statusCodes)} ${JSON.stringify(r.statusCodes)}`);
      results[side].push({ storm: s, reads: r, alone });
      console.log(
        `${side.padEnd(6)} sign-in ${s.requestsPerSecond.toFixed(1)}/s (p99 ${s.latencyMs.p99} ms), reads during it ` +
          `p99 ${r.latencyMs.p99} ms (${Math.round(r.requestsPerSecond)}/s), reads alone p99 ` +
          `${alone.latencyMs.p99} ms; load ${load1()}`,
      );
    }
    console.log(
      `\nMedians of ${ROUNDS.length / 2} rounds each, ${SECONDS} s per round, load average ${load1()} at the end:`,
    );
    for (const side of ['before', 'after'] as const) {
      const rs = results[side];
      console.log(
        `  ${side.padEnd(6)} sign-in ${median(rs.map((r) => r.storm.requestsPerSecond)).toFixed(1)}/s, reads during ` +
          `the storm p99 ${median(rs.map((r) => r.reads.latencyMs.p99))} ms, ` +
          `reads alone p99 ${median(rs.map((r) => r.alone.latencyMs.p99))} ms`,
      );
    }
  } finally {
    await sides.before.stop();
    await sides.after.stop();
  }
} finally {
  await stop();
}
// The sign-in customers' hash ran on a hash worker thread (hash-workers.ts), which would hold the process open for its
// idle time.
process.exit(0);
