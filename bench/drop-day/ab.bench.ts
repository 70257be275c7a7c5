/**
 * `npm run bench:ab -- <before> <after>`: two builds of the API side by side, one process each on
 * the same PostgreSQL, in alternating rounds (ABBA ABBA ABBA) so the host's swings hit both alike.
 * Each round drives one side with wrk (as the direct scenario does: 50 connections, no proxy) first
 * with cached available-slots reads, then with the same reads revalidated (If-None-Match, 304).
 * Prints each side's median throughput, CPU per request and p99. Paths are relative to apps/api and
 * must stay inside it (the API finds its folder from its entry), e.g. before a change
 * `node build.mjs dist/before/start.mjs`, after it `node build.mjs`, then
 * `npm run bench:ab -- dist/before/start.mjs dist/start.mjs`. BENCH_AB_AFTER_ENV='NAME=value,...'
 * starts the after side with those variables too: one build, two settings
 * (`BENCH_AB_AFTER_ENV=RATE_LIMIT_MODE=on npm run bench:ab -- dist/start.mjs dist/start.mjs`), and
 * BENCH_AB_AFTER_NODE_FLAGS='--flag ...' Node flags (`--max-semi-space-size=2`). BENCH_AB_BEFORE_ENV does
 * the same for the before side, so a spread can swap which side has a setting. Each side serves its
 * metrics on its own port (its port + 1000). An OTLP sink that accepts and drops traces listens on
 * 127.0.0.1:4112 (`OTEL_EXPORTER_OTLP_ENDPOINT=http://127.0.0.1:4112`: tracing's cost, decision 0095).
 * BENCH_AB_ROUNDS: how many ABBA blocks (3: six rounds a side).
 */
import http from 'node:http';
import { sql } from 'drizzle-orm';
import { startBenchDatabase } from './bench-database';
import { DIRECT, revalidationsOf } from './direct.scenario';
import { median, runLoad } from './load-generator';
import { startAbSides } from './processes';
import { appCheckToken, availableSlotsReads, createCustomers } from './seed-data';
import { ensureWrk, runWrk, type WrkResult } from './wrk';

const [before, after] = process.argv.slice(2);
if (!before || !after)
  throw new Error('usage: npm run bench:ab -- <before entry> <after entry> (relative to apps/api)');
const ABBA = ['before', 'after', 'after', 'before'] as const;
const ROUNDS = Array.from({ length: Number(process.env.BENCH_AB_ROUNDS ?? 3) }, () => ABBA).flat();
const SECONDS = 4;
const PORTS = { postgres: 4100, before: 4110, after: 4111, otlp: 4112 };
type Side = 'before' | 'after';
type Kind = 'reads' | 'revalidations';

await ensureWrk();
/** A collector that keeps nothing: the API's exporter does all its work, the bench none worth counting. */
let spanBatches = 0;
const otlpSink = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    spanBatches++;
    res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end();
  });
});
await new Promise<void>((resolve) => otlpSink.listen(PORTS.otlp, '127.0.0.1', resolve));
const envOf = (value: string | undefined) =>
  Object.fromEntries(
    (value ?? '')
      .split(',')
      .filter(Boolean)
      .map((kv) => [kv.slice(0, kv.indexOf('=')), kv.slice(kv.indexOf('=') + 1)]),
  );
const { tmp, databaseUrl, db, endPool, season, jwtKey, idTokens, stop } = await startBenchDatabase(
  'ab',
  PORTS.postgres,
);
try {
  const customers = await createCustomers(db, idTokens, 1000, 'ab');
  await db.execute(sql`vacuum analyze`);
  await endPool();

  const sides = await startAbSides({
    databaseUrl,
    jwtKey,
    logDir: tmp,
    scripts: { before, after },
    ports: PORTS,
    beforeEnv: envOf(process.env.BENCH_AB_BEFORE_ENV),
    afterEnv: envOf(process.env.BENCH_AB_AFTER_ENV),
    afterNodeFlags: (process.env.BENCH_AB_AFTER_NODE_FLAGS ?? '').split(' ').filter(Boolean),
  });
  try {
    const url = (side: Side) => `http://127.0.0.1:${PORTS[side]}`;
    const reads = availableSlotsReads(customers, season.targets, await appCheckToken(url('before'))).slice(0, 1000);
    // Every customer's token verified by both sides once (families on the page before the drop).
    for (const side of ['before', 'after'] as const)
      await runLoad({ url: url(side), connections: 30, amount: reads.length, requests: reads }, tmp);
    const load = async (side: Side, kind: Kind, measured: boolean, unmeasuredSeconds = 2) => {
      // Tags taken just before: a session passing the lead time changes its day's answer (and tag).
      const requests = kind === 'reads' ? reads : (await revalidationsOf(url(side), reads)).requests;
      return runWrk(
        {
          url: url(side),
          connections: DIRECT.connections,
          duration: measured ? SECONDS : unmeasuredSeconds,
          requests,
          ...(measured ? { cpuPids: sides[side].pids } : {}),
        },
        tmp,
      );
    };
    for (const side of ['before', 'after'] as const)
      for (const kind of ['reads', 'revalidations'] as const) await load(side, kind, false);
    const results: Record<Side, Record<Kind, WrkResult[]>> = {
      before: { reads: [], revalidations: [] },
      after: { reads: [], revalidations: [] },
    };
    for (const side of ROUNDS) {
      // Unmeasured: this side idled through the other's rounds, past its answers' 1 s life (decision 0073).
      await load(side, 'reads', false, 1);
      for (const kind of ['reads', 'revalidations'] as const) {
        const r = await load(side, kind, true);
        if (r.statusCodes.other || r.errors || r.timeouts)
          throw new Error(
            `${side} ${kind}: ${JSON.stringify(r.statusCodes)}, ${r.errors} errors, ${r.timeouts} timeouts`,
          );
        results[side][kind].push(r);
        console.log(
          `${side.padEnd(6)} ${kind.padEnd(13)} ${Math.round(r.requestsPerSecond)}/s, ` +
            `${r.serverCpuMicrosPerRequest} µs CPU each, p99 ${r.latencyMs.p99} ms, ${r.bytesPerResponse} B each`,
        );
      }
    }
    console.log(
      `\nMedians of ${ROUNDS.length / 2} rounds each, wrk at ` +
        `${DIRECT.connections} connections, ${SECONDS} s per round:`,
    );
    const cpu = (side: Side, kind: Kind) => median(results[side][kind].map((r) => r.serverCpuMicrosPerRequest!));
    for (const kind of ['reads', 'revalidations'] as const) {
      for (const side of ['before', 'after'] as const) {
        const rs = results[side][kind];
        console.log(
          `  ${kind.padEnd(13)} ${side.padEnd(6)} ${median(rs.map((r) => Math.round(r.requestsPerSecond)))}/s, ` +
            `${cpu(side, kind)} µs CPU each, p99 ${median(rs.map((r) => r.latencyMs.p99))} ms`,
        );
      }
      const change = (cpu('after', kind) / cpu('before', kind) - 1) * 100;
      console.log(`  ${kind.padEnd(13)} after's CPU per answer ${change >= 0 ? '+' : ''}${change.toFixed(1)}%`);
    }
    if (spanBatches) console.log(`  OTLP sink: ${spanBatches} span batches received`);
  } finally {
    await sides.before.stop();
    await sides.after.stop();
  }
} finally {
  await stop();
  otlpSink.close();
}
