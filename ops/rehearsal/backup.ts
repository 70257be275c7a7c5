import { execFile, execFileSync } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { PG_BIN } from '../../bench/drop-day/postgres-cluster';
import { REPO_ROOT } from '../../bench/drop-day/processes';
import { startApi, type Release } from './api-host';
import type { Checks } from './checks';
import type { LoadResult } from './families';
import { Phone } from './phone';
import {
  adminQuery,
  createRolesAsDeployMdSays,
  OWNER_PASSWORD,
  startPostgresHost,
  type PostgresHost,
} from './postgres-host';
import type { Seed } from './scenario';
import { HOSTS, familyAddress, type Topology } from './topology';

const run = promisify(execFile);

/** poppler's pdftotext of a receipt answer (`200 <base64 PDF>`). */
const pdfText = (answer: string) =>
  execFileSync('pdftotext', ['-', '-'], { input: Buffer.from(answer.slice(4), 'base64') }).toString();
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

interface Snapshot {
  chain: string[];
  bookings: string[];
}

const snapshot = async (url: string): Promise<Snapshot> => ({
  chain: (
    await adminQuery<{ l: string }>(
      url,
      `select link || ' ' || encode(hash, 'hex') as l from audit_chain order by link`,
    )
  ).map((r) => r.l),
  bookings: (
    await adminQuery<{ b: string }>(
      url,
      `select concat_ws(' ', b.id, b.reference, b.slot_id, b.status, o.status, o.payment_intent_id, o.amount_cents) as b
       from bookings b left join orders o on o.booking_id = b.id order by b.id`,
    )
  ).map((r) => r.b),
});

/**
 * Part (c): deploy.md's backup (pg_dump in PostgreSQL's custom format, taken online from the
 * operator's host) restored into a fresh PostgreSQL on another host prepared as deploy.md says,
 * then the release started on it: the same bookings, receipts and audit chain.
 */
export async function backUpAndRestore(opts: {
  topo: Topology;
  checks: Checks;
  db: PostgresHost;
  dir: string;
  env: Record<string, string>;
  release: Release;
  logDir: string;
  result: LoadResult;
  seed: Seed;
  appCheck: string;
}): Promise<void> {
  const { checks, db } = opts;
  const live = db.adminUrl('kringle');
  // The audit-seal job links each entry about a second after it commits.
  const unsealed = async () =>
    (
      await adminQuery<{ n: number }>(
        live,
        'select count(*)::int as n from audit_entries e where not exists (select 1 from audit_chain c where ' +
          'c.entry_id = e.id)',
      )
    )[0]!.n;
  for (let i = 0; i < 60 && (await unsealed()) > 0; i++) await sleep(500);

  // What the families see before, through nginx: their bookings, and a few receipts.
  const paid = opts.result.booked.filter((b) => b.paid && !b.cancelled);
  const sample = [...new Set(paid.map((b) => b.family))].slice(0, 8);
  const receipts = paid.filter((b, i) => paid.findIndex((c) => c.family === b.family) === i).slice(0, 3);
  const views = async (base: string) => {
    const out: string[] = [];
    for (const family of sample) {
      const phone = new Phone(family, familyAddress(family), []);
      const headers = { authorization: opts.seed.families[family]!.authorization, 'x-app-check': opts.appCheck };
      out.push((await phone.request('upcoming', 'GET', `${base}/api/v1/bookings/upcoming-bookings`, headers)).body);
      for (const r of receipts.filter((b) => b.family === family)) {
        const url = `${base}/api/v1/orders/${r.bookingId}/orders/${r.orderId}/payment-receipt`;
        const pdf = await phone.request('receipt', 'GET', url, headers);
        out.push(`${pdf.status} ${Buffer.from(pdf.body, 'latin1').toString('base64')}`);
      }
      phone.close();
    }
    return out;
  };
  const before = await snapshot(live);
  const viewsBefore = await views(`http://${HOSTS.nginx}`);
  checks.check(
    'the families can read their bookings and receipts before the backup',
    viewsBefore.every((v) => !v.startsWith('5') && !v.startsWith('4')) && receipts.length > 0,
    `${sample.length} families, ${receipts.length} receipts`,
  );

  const dump = path.join(opts.dir, 'kringle.dump');
  const pgEnv = { ...process.env, PGPASSWORD: OWNER_PASSWORD };
  const started = Date.now();
  // deploy.md "Backups": as the owner role, from a host that reaches the database.
  await run(
    path.join(PG_BIN, 'pg_dump'),
    ['--format=custom', `--file=${dump}`, `--host=${HOSTS.db}`, '--username=kringle_owner', '--dbname=kringle'],
    { env: pgEnv },
  );
  const dumpMs = Date.now() - started;
  const after = await snapshot(live);

  const db2 = startPostgresHost(opts.topo, 'db2', path.join(opts.dir, 'db2'));
  await createRolesAsDeployMdSays(db2);
  const restoreStarted = Date.now();
  const restore = await run(
    path.join(PG_BIN, 'pg_restore'),
    ['--exit-on-error', `--host=${HOSTS.db2}`, '--username=kringle_owner', '--dbname=kringle', dump],
    { env: pgEnv },
  ).then(
    () => null,
    (err: { stderr?: string }) => err.stderr ?? String(err),
  );
  checks.check(
    'pg_dump (online, as the owner) and pg_restore into a fresh PostgreSQL prepared as deploy.md says',
    restore === null,
    restore ?? `dump ${dumpMs} ms, restore ${Date.now() - restoreStarted} ms`,
  );
  if (restore !== null) return;

  const restored = await snapshot(db2.adminUrl('kringle'));
  checks.check(
    'the restored database has the same bookings and orders',
    restored.bookings.join('\n') === before.bookings.join('\n') && restored.bookings.length === after.bookings.length,
    `${before.bookings.length} bookings before, ${restored.bookings.length} restored`,
  );
  // Online: the chain may have grown between the two snapshots; the dump holds one moment of it.
  const prefixOf = (short: string[], long: string[]) => short.every((l, i) => long[i] === l);
  checks.check(
    'the restored audit chain is the live one at the moment of the dump',
    before.chain.length > 0 &&
      restored.chain.length >= before.chain.length &&
      prefixOf(before.chain, restored.chain) &&
      prefixOf(restored.chain, after.chain),
    `${before.chain.length} links before the dump, ${restored.chain.length} restored, ${after.chain.length} after`,
  );

  const env = { ...opts.env, DATABASE_URL: db2.appUrl, MIGRATION_DATABASE_URL: db2.ownerUrl };
  const api3 = await startApi(opts.topo, 'api3', opts.release, env, opts.logDir);
  const viewsRestored = await views(api3.url);
  // A receipt is drawn when asked for, so its PDF's creation date and id differ: compared by its text.
  const same = (a: string, b: string) => a === b || (a.startsWith('200 ') && pdfText(a) === pdfText(b));
  const differing = viewsBefore.filter((v, i) => !same(v, viewsRestored[i] ?? '')).length;
  checks.check(
    'the app started on the restored database serves the same bookings, and receipts with the same text',
    differing === 0 && viewsRestored.length === viewsBefore.length,
    `${viewsBefore.length} answers compared, ${differing} differ, ` +
      `${viewsBefore.filter((v, i) => v === viewsRestored[i]).length} byte for byte`,
  );

  const verify = await run('npm', ['run', '--silent', 'audit:verify'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATABASE_URL: db2.appUrl },
  }).then(
    ({ stdout }) => ({ ok: true, out: stdout }),
    (err: { stdout?: string; stderr?: string }) => ({ ok: false, out: `${err.stdout ?? ''}${err.stderr ?? ''}` }),
  );
  const head = /head link (\d+) ([0-9a-f]{64})/.exec(verify.out);
  const restoredChain = (await snapshot(db2.adminUrl('kringle'))).chain;
  checks.check(
    '`npm run audit:verify` on the restored database: the chain verifies, its head is the restored one',
    verify.ok &&
      head !== null &&
      restoredChain.includes(`${head[1]} ${head[2]}`) &&
      Number(head[1]) >= restored.chain.length,
    verify.out.trim().split('\n')[0] ?? '',
  );
  await api3.stop();
}
