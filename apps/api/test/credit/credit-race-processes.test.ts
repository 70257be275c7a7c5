import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import type { IdTokens } from '../../src/modules/accounts/id-tokens';
import { startApiProcesses, type ApiProcesses } from '../helpers/api-processes';
import { createCustomers, type TestCustomer } from '../helpers/customers';
import { startSandbox } from '../helpers/payments';
import { createProcessesDatabase } from '../helpers/processes-database';

const FAMILIES = 6;
const TRIES = 3;

/**
 * Decision 0111: credit is taken in the checkout's transaction, under the family's credit lock and
 * the hold's row lock, so a checkout sent again and again through three API processes on one
 * database spends the family's credit once; the next cart finds none left.
 */
describe('account credit spent through three API processes at once', () => {
  let api: ApiProcesses;
  let db: Db;
  let close: () => Promise<void>;
  let idTokens: IdTokens;
  let sandbox: StripeSandbox;

  beforeAll(async () => {
    const conn = await createProcessesDatabase({ season: { days: 21 } });
    ({ db, idTokens, close } = conn);
    const s = await startSandbox();
    sandbox = s.sandbox;
    api = await startApiProcesses(3, { ...conn.env, ...s.env });
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await sandbox?.stop();
    await close?.();
  });

  const call = async (process: number, who: TestCustomer, method: string, path: string, body?: object) => {
    const res = await fetch(`${api.urls[process % 3]}/api/v1${path}`, {
      method,
      headers: { ...who.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

  it(`${FAMILIES} families each send one checkout ${TRIES} times: each credit is spent once`, async () => {
    const slots = (
      await db.execute(sql`select s.id from slots s where s.kind = 'session' and s.start_at > now() + interval '2 days'
        order by s.start_at limit ${FAMILIES * 2}`)
    ).rows.map((r) => r.id as string);
    const pkg = (await db.execute(sql`select id, price_cents from packages where slug = 'classic-print'`)).rows[0]!;
    const price = Number(pkg.price_cents);
    const families = await createCustomers(db, idTokens, FAMILIES);
    for (const f of families)
      await db.execute(sql`insert into credit_entries (user_id, cents, reason, expires_at)
        values (${f.id}::uuid, ${price}, 'cancel_refund', now() + interval '3 years')`);

    const carts = await Promise.all(
      families.map(async (f, i) => {
        const hold = await call(i, f, 'POST', '/bookings/reservation', { slotId: slots[i] });
        expect(hold.status, JSON.stringify(hold.body)).toBe(201);
        const cart = await call(i + 1, f, 'POST', '/cart', {
          reservationId: hold.body.id,
          amount: price,
          packages: [{ id: pkg.id }],
          useCredit: true,
        });
        expect(cart.status, JSON.stringify(cart.body)).toBe(201);
        expect(cart.body.dueCents).toBe(0);
        return { f, i, holdId: hold.body.id as string, cartId: cart.body.id as string };
      }),
    );
    const checkouts = await Promise.all(
      carts.flatMap((c) =>
        Array.from({ length: TRIES }, (_, t) =>
          call(c.i + t, c.f, 'POST', `/bookings/reservation/${c.holdId}/checkoutOrder`, { cartId: c.cartId }),
        ),
      ),
    );
    expect(checkouts.map((a) => a.status)).toEqual(Array(FAMILIES * TRIES).fill(201));
    expect(new Set(checkouts.map((a) => a.body.orderId)).size).toBe(FAMILIES);

    for (const [i, f] of families.entries()) {
      const credit = await call(i, f, 'GET', '/user/credit');
      expect(credit.body.balanceCents).toBe(0);
      const hold = await call(i + 1, f, 'POST', '/bookings/reservation', { slotId: slots[FAMILIES + i] });
      expect(hold.status, JSON.stringify(hold.body)).toBe(201);
      const cart = await call(i + 2, f, 'POST', '/cart', {
        reservationId: hold.body.id,
        amount: price,
        packages: [{ id: pkg.id }],
        useCredit: true,
      });
      expect(cart.body).toMatchObject({ payments: [], dueCents: price });
    }
    const spent = await db.execute(sql`select count(*)::int as n, sum(cents)::int as cents from credit_entries
      where reason = 'spent' and user_id in (${sql.join(
        families.map((f) => sql`${f.id}::uuid`),
        sql`, `,
      )})`);
    expect(spent.rows[0]).toEqual({ n: FAMILIES, cents: -FAMILIES * price });
    const confirmed = await db.execute(sql`select count(*)::int as n from bookings where status = 'completed'
      and user_id in (${sql.join(
        families.map((f) => sql`${f.id}::uuid`),
        sql`, `,
      )})`);
    expect(confirmed.rows[0]!.n).toBe(FAMILIES);
  }, 60_000);
});
