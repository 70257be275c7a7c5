import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { sql } from 'drizzle-orm';
import { formatVoucherCode } from '@kringle/contracts/vouchers';
import { createDb, type Db } from '../../apps/api/src/db/client';
import { codeHash, voucherCode } from '../../apps/api/src/modules/vouchers/voucher-codes';
import type { BenchCustomer } from '../drop-day/seed-data';

/** One round's data: its families, each with its own session, and its vouchers (`carts / vouchers` carts each). */
export interface RoundData {
  families: BenchCustomer[];
  slots: string[];
  vouchers: string[];
}

/** Paid vouchers straight into the database (their sale is tested in apps/api), worth `cents` each. */
export async function seedVouchers(db: Db, key: string, count: number, cents: number): Promise<string[]> {
  const ids = Array.from({ length: count }, () => randomUUID());
  for (const id of ids) {
    await db.execute(sql`insert into vouchers (id, code_hash, amount_cents, recipient_name, send_on, status, paid_at,
      expires_at) values (${id}::uuid, ${codeHash(voucherCode(key, id))}, ${cents}, 'Bench', current_date, 'paid',
      now(), now() + interval '3 years')`);
    await db.execute(
      sql`insert into voucher_entries (voucher_id, cents, reason) values (${id}::uuid, ${cents}, 'sold')`,
    );
  }
  return ids;
}

type Call = (i: number, who: BenchCustomer, url: string, body: object) => Promise<Answer>;
export interface Answer {
  status: number;
  body: Record<string, unknown>;
  ms: number;
}
interface Cart {
  i: number;
  family: BenchCustomer;
  voucherId: string;
  holdId: string;
  cartId: string;
}

/** Not timed: each family holds its session and prices its cart with its voucher's whole balance. */
export async function prepareCarts(
  call: Call,
  data: RoundData,
  key: string,
  pkg: { id: string; priceCents: number },
): Promise<Cart[]> {
  const perVoucher = data.families.length / data.vouchers.length;
  const carts: Cart[] = [];
  for (let start = 0; start < data.families.length; start += 50) {
    const batch = await Promise.all(
      data.families.slice(start, start + 50).map(async (family, j) => {
        const i = start + j;
        // Side by side: families i..i+4 share a voucher, so its checkouts are sent together.
        const voucherId = data.vouchers[Math.floor(i / perVoucher)]!;
        const hold = await call(i, family, '/bookings/reservation', { slotId: data.slots[i] });
        if (hold.status !== 201) throw new Error(`hold ${hold.status}: ${JSON.stringify(hold.body)}`);
        const cart = await call(i + 1, family, '/cart', {
          reservationId: hold.body.id,
          amount: pkg.priceCents,
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
  return carts;
}

/**
 * User + system CPU seconds so far of the API processes and of PostgreSQL (Linux /proc): its live
 * processes, and the ones that ended, which the postmaster reaped into its children's times.
 */
export function cpuSeconds(apiPids: number[]): { api: number; postgres: number } {
  const of = (pid: string) => {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat
      .slice(stat.lastIndexOf(') ') + 2)
      .split(' ')
      .map(Number);
    return {
      comm: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
      own: (f[11]! + f[12]!) / 100,
      reaped: (f[13]! + f[14]!) / 100,
    };
  };
  let postgres = 0;
  for (const pid of fs.readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const p = of(pid);
      if (p.comm === 'postgres') postgres += p.own + p.reaped;
    } catch {
      // A process that ended while read.
    }
  }
  return { api: apiPids.reduce((sum, pid) => sum + of(String(pid)).own, 0), postgres };
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;

export interface RoundResult {
  statuses: Record<string, number>;
  p50: number;
  p99: number;
  max: number;
  wallMs: number;
  cpuMs: { api: number; postgres: number };
  /** One checkout paid by each voucher, the others refused 409 VOUCHER_INVALID, no balance below zero. */
  noOverspend: boolean;
  ledger: Record<string, unknown>;
}

/**
 * Sends every cart's checkout: all at once (`rate` 0), or open loop, checkout i due at start +
 * i / rate whether or not earlier ones were answered, its latency counted from then (a stalled
 * server is not hidden by a client that waits with it). Then reads the round's vouchers' ledger.
 */
export async function runRound(
  call: Call,
  carts: Cart[],
  opts: { rate: number; apiPids: number[]; databaseUrl: string; priceCents: number },
): Promise<RoundResult> {
  const results: (Cart & { res: Answer })[] = [];
  const cpuBefore = cpuSeconds(opts.apiPids);
  const started = performance.now();
  await Promise.all(
    carts.map(async (c, n) => {
      const due = opts.rate > 0 ? started + (n * 1000) / opts.rate : started;
      if (due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
      const res = await call(c.i, c.family, `/bookings/reservation/${c.holdId}/checkoutOrder`, { cartId: c.cartId });
      results.push({ ...c, res: { ...res, ms: performance.now() - due } });
    }),
  );
  const wallMs = performance.now() - started;
  const cpuAfter = cpuSeconds(opts.apiPids);

  const statuses: Record<string, number> = {};
  for (const r of results) statuses[r.res.status] = (statuses[r.res.status] ?? 0) + 1;
  const winners = new Map<string, number>();
  for (const r of results.filter((x) => x.res.status === 201))
    winners.set(r.voucherId, (winners.get(r.voucherId) ?? 0) + 1);
  const vouchers = [...new Set(carts.map((c) => c.voucherId))];
  const refusedRight = results.every((r) => r.res.status === 201 || r.res.body.code === 'VOUCHER_INVALID');
  const latencies = results.map((r) => r.res.ms).sort((a, b) => a - b);

  const check = createDb(opts.databaseUrl, 1);
  const ids = sql.join(
    vouchers.map((id) => sql`${id}::uuid`),
    sql`, `,
  );
  const ledger = (
    await check.db.execute(sql`
      select count(*) filter (where balance < 0)::int as overspent, min(balance)::int as lowest,
        (select coalesce(-sum(cents), 0)::int from voucher_entries
          where reason = 'spent' and voucher_id in (${ids})) as spent,
        (select count(distinct order_id)::int from voucher_entries
          where reason = 'spent' and voucher_id in (${ids})) as orders,
        (select count(*)::int from bookings b join voucher_entries e on e.booking_id = b.id
          where e.reason = 'spent' and e.voucher_id in (${ids}) and b.status = 'completed') as confirmed
      from (select v.id, coalesce(sum(e.cents), 0) as balance from vouchers v
        left join voucher_entries e on e.voucher_id = v.id where v.id in (${ids}) group by v.id) b`)
  ).rows[0]!;
  await check.pool.end();
  const noOverspend =
    ledger.overspent === 0 &&
    ledger.spent === vouchers.length * opts.priceCents &&
    ledger.orders === vouchers.length &&
    ledger.confirmed === vouchers.length &&
    vouchers.every((id) => winners.get(id) === 1) &&
    refusedRight;
  const perCheckout = (k: 'api' | 'postgres') => ((cpuAfter[k] - cpuBefore[k]) * 1000) / results.length;
  return {
    statuses,
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    max: latencies.at(-1)!,
    wallMs,
    cpuMs: { api: perCheckout('api'), postgres: perCheckout('postgres') },
    noOverspend,
    ledger,
  };
}
