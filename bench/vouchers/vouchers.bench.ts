/**
 * `npm run bench:vouchers`: issue 52's proof at scale (decision 0112): 1,000 checkouts through two
 * API processes spending 200 gift vouchers, five carts each, every cart priced with its voucher's
 * whole balance, the five sent side by side so they race. Zero overspend: each voucher pays exactly
 * one checkout, the other four are refused 409 VOUCHER_INVALID with nothing written, and no balance
 * goes below zero. The checkout's p99 is held to the drop-day's write budget, the hold's: under
 * 100 ms at 50 connections (BENCH_VOUCHER_CONNECTIONS, BENCH_CHECKOUT_P99_MS). With connections at
 * 1,000 every checkout is sent at once.
 *
 * The data: the demo season (42 days), 1,000 families each holding its own session with a cart,
 * 200 vouchers sold and paid (straight into the database: their sale is tested in apps/api). Two
 * built API processes (apps/api/build.mjs), jobs on, app check off (not what is measured). Writes
 * bench/reports/vouchers.md and exits non-zero when a budget fails.
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { formatVoucherCode } from '@kringle/contracts/vouchers';
import { createDb } from '../../apps/api/src/db/client';
import { codeHash, voucherCode } from '../../apps/api/src/modules/vouchers/voucher-codes';
import { startBenchDatabase } from '../drop-day/bench-database';
import { benchApiEnv, REPO_ROOT, startProcesses } from '../drop-day/processes';
import { createCustomers, type BenchCustomer } from '../drop-day/seed-data';

const CHECKOUTS = Number(process.env.BENCH_VOUCHER_CHECKOUTS ?? 1000);
const VOUCHERS = Number(process.env.BENCH_VOUCHERS ?? 200);
const P99_MS = Number(process.env.BENCH_CHECKOUT_P99_MS ?? 100);
const CONNECTIONS = Number(process.env.BENCH_VOUCHER_CONNECTIONS ?? 50);
const PORTS = { postgres: 4323, api: [4341, 4342], smtp: 4398 };
const API_DIR = path.join(REPO_ROOT, 'apps/api');

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

execFileSync(process.execPath, ['build.mjs'], { cwd: API_DIR, stdio: 'inherit' });
const { tmp, databaseUrl, db, endPool, jwtKey, idTokens, stop } = await startBenchDatabase('vouchers', PORTS.postgres);
try {
  const production = benchApiEnv({
    databaseUrl,
    jwtKey,
    publicUrl: `http://127.0.0.1:${PORTS.api[0]}`,
    deadStripePort: 1,
    deadSmtpPort: PORTS.smtp,
  });
  const env = { ...production, APP_CHECK_MODE: 'off', DATABASE_POOL_SIZE: '20' };
  const key = production.VOUCHER_CODE_KEY!;
  const pkg = (await db.execute(sql`select id, price_cents from packages where slug = 'classic-print'`)).rows[0]!;
  const price = Number(pkg.price_cents);
  // One booking's price and less than $5 more: a voucher never pays two.
  const value = Math.ceil(price / 500) * 500;
  const vouchers = Array.from({ length: VOUCHERS }, () => randomUUID());
  for (const id of vouchers) {
    await db.execute(sql`insert into vouchers (id, code_hash, amount_cents, recipient_name, send_on, status, paid_at,
      expires_at) values (${id}::uuid, ${codeHash(voucherCode(key, id))}, ${value}, 'Bench', current_date, 'paid',
      now(), now() + interval '3 years')`);
    await db.execute(
      sql`insert into voucher_entries (voucher_id, cents, reason) values (${id}::uuid, ${value}, 'sold')`,
    );
  }
  const slots = (
    await db.execute(sql`select id from slots where kind = 'session' and start_at > now() + interval '1 day'
      order by start_at limit ${CHECKOUTS}`)
  ).rows.map((r) => r.id as string);
  if (slots.length < CHECKOUTS) throw new Error(`only ${slots.length} sessions for ${CHECKOUTS} checkouts`);
  const families = await createCustomers(db, idTokens, CHECKOUTS, 'voucher');
  await endPool();

  const api = await startProcesses({
    name: 'api',
    script: 'dist/start.mjs',
    cwd: API_DIR,
    ports: PORTS.api,
    env,
    readyPath: '/api/v1/ready',
    logDir: tmp,
  });
  try {
    const call = async (i: number, who: BenchCustomer, url: string, body: object) => {
      const started = performance.now();
      const res = await fetch(`http://${api.addresses[i % api.addresses.length]}/api/v1${url}`, {
        method: 'POST',
        headers: { authorization: who.authorization, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      return {
        status: res.status,
        body: (await res.json()) as Record<string, unknown>,
        ms: performance.now() - started,
      };
    };
    // Not timed: each family holds its session and prices its cart with its voucher (five families a voucher).
    const carts: { i: number; family: BenchCustomer; voucherId: string; holdId: string; cartId: string }[] = [];
    for (let start = 0; start < CHECKOUTS; start += 50) {
      const batch = await Promise.all(
        families.slice(start, start + 50).map(async (family, j) => {
          const i = start + j;
          // Side by side: families i..i+4 share a voucher, so its five checkouts are in flight together.
          const voucherId = vouchers[Math.floor(i / (CHECKOUTS / VOUCHERS))]!;
          const hold = await call(i, family, '/bookings/reservation', { slotId: slots[i] });
          if (hold.status !== 201) throw new Error(`hold ${hold.status}: ${JSON.stringify(hold.body)}`);
          const cart = await call(i + 1, family, '/cart', {
            reservationId: hold.body.id,
            amount: price,
            packages: [{ id: pkg.id }],
            vouchers: [formatVoucherCode(voucherCode(key, voucherId))],
          });
          if (cart.status !== 201 || cart.body.dueCents !== 0)
            throw new Error(`cart ${cart.status}: ${JSON.stringify(cart.body)}`);
          return { i, family, voucherId, holdId: hold.body.id as string, cartId: cart.body.id as string };
        }),
      );
      carts.push(...batch);
    }
    const loadAtStart = fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
    const started = performance.now();
    // CONNECTIONS workers, each sending its next checkout as soon as the last is answered (closed loop).
    type Result = (typeof carts)[number] & { res: Awaited<ReturnType<typeof call>> };
    const results: Result[] = [];
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(CONNECTIONS, carts.length) }, async () => {
        while (next < carts.length) {
          const c = carts[next++]!;
          const res = await call(c.i, c.family, `/bookings/reservation/${c.holdId}/checkoutOrder`, {
            cartId: c.cartId,
          });
          results.push({ ...c, res });
        }
      }),
    );
    const wallMs = performance.now() - started;

    const statuses: Record<string, number> = {};
    for (const r of results) statuses[r.res.status] = (statuses[r.res.status] ?? 0) + 1;
    const refusedRight = results.every((r) => r.res.status === 201 || r.res.body.code === 'VOUCHER_INVALID');
    const winnersPerVoucher = new Map<string, number>();
    for (const r of results.filter((x) => x.res.status === 201))
      winnersPerVoucher.set(r.voucherId, (winnersPerVoucher.get(r.voucherId) ?? 0) + 1);
    const oneEach = vouchers.every((id) => winnersPerVoucher.get(id) === 1);
    const latencies = results.map((r) => r.res.ms).sort((a, b) => a - b);
    const p50 = percentile(latencies, 0.5);
    const p99 = percentile(latencies, 0.99);

    const check = createDb(databaseUrl, 1);
    const ledger = (
      await check.db.execute(sql`
      select count(*) filter (where balance < 0)::int as overspent, min(balance)::int as lowest,
        (select coalesce(-sum(cents), 0)::int from voucher_entries where reason = 'spent') as spent,
        (select count(*)::int from orders) as orders,
        (select count(*)::int from bookings where status = 'completed') as confirmed
      from (select v.id, coalesce(sum(e.cents), 0) as balance from vouchers v
        left join voucher_entries e on e.voucher_id = v.id group by v.id) b`)
    ).rows[0]!;
    await check.pool.end();
    const noOverspend =
      ledger.overspent === 0 &&
      ledger.spent === VOUCHERS * price &&
      ledger.orders === VOUCHERS &&
      ledger.confirmed === VOUCHERS &&
      oneEach &&
      refusedRight;
    const fast = p99 < P99_MS;
    const report = [
      `# Gift voucher bench (${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC)`,
      '',
      `\`npm run bench:vouchers\`: ${CHECKOUTS.toLocaleString('en-AU')} checkouts, ${CONNECTIONS} in flight at a ` +
        `time, through two API processes, spending ${VOUCHERS} gift vouchers (${CHECKOUTS / VOUCHERS} carts each, ` +
        `every cart priced with its voucher's whole balance, sent side by side). Load average (1, 5, 15 min) at ` +
        `the start: ${loadAtStart}.`,
      '',
      '| budget | target | measured | |',
      '|---|---|---|---|',
      `| overspend | none: one checkout per voucher, the rest 409 VOUCHER_INVALID, no balance below 0 | ` +
        `${ledger.overspent} overspent (lowest balance ${ledger.lowest} cents), ${ledger.orders} orders, ` +
        `${ledger.confirmed} confirmed, $${(Number(ledger.spent) / 100).toFixed(2)} spent, answers ` +
        `${JSON.stringify(statuses)} | ${noOverspend ? 'pass' : 'FAIL'} |`,
      `| checkout p99 at ${CONNECTIONS} connections | under ${P99_MS} ms | **${p99.toFixed(0)} ms** ` +
        `(p50 ${p50.toFixed(0)} ms, max ${latencies.at(-1)!.toFixed(0)} ms, ` +
        `all answered in ${wallMs.toFixed(0)} ms) | ${fast ? 'pass' : 'FAIL'} |`,
      '',
    ].join('\n');
    console.log(report);
    fs.mkdirSync(path.join(REPO_ROOT, 'bench/reports'), { recursive: true });
    fs.writeFileSync(path.join(REPO_ROOT, 'bench/reports/vouchers.md'), report);
    process.exitCode = noOverspend && fast ? 0 : 1;
  } finally {
    await api.stop();
  }
} finally {
  await stop();
}
