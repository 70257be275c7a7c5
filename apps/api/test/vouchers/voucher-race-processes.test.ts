import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';
import type { Db } from '../../src/db/client';
import type { IdTokens } from '../../src/modules/accounts/id-tokens';
import { codeHash, voucherCode } from '../../src/modules/vouchers/voucher-codes';
import { formatVoucherCode } from '@kringle/contracts/vouchers';
import { startCheckoutRace, type CheckoutRace } from '../helpers/checkout-race';
import { createCustomers, type TestCustomer } from '../helpers/customers';

const VOUCHERS = 4;
/** Families that know each voucher's code and spend it at once. */
const SPENDERS = 3;

/**
 * Decision 0112: a voucher is spent in the checkout's transaction under its row lock, so carts of
 * several families all priced with one voucher's whole balance, checked out at once through three
 * API processes on one database, spend it once: one checkout wins, the others are told
 * VOUCHER_INVALID with nothing written.
 */
describe('one gift voucher spent by several families through three API processes at once', () => {
  let race: CheckoutRace;
  let db: Db;
  let idTokens: IdTokens;

  beforeAll(async () => {
    race = await startCheckoutRace();
    ({ db, idTokens } = race);
  }, 120_000);
  afterAll(async () => race?.close());

  const call = (process: number, who: TestCustomer, method: string, path: string, body?: object) =>
    race.call(process, who, method, path, body);

  it(`${VOUCHERS} vouchers, each in ${SPENDERS} families' carts, checked out at once: each is spent once`, async () => {
    const slots = (
      await db.execute(sql`select s.id from slots s where s.kind = 'session' and s.start_at > now() + interval '2 days'
        order by s.start_at limit ${VOUCHERS * SPENDERS}`)
    ).rows.map((r) => r.id as string);
    const pkg = (await db.execute(sql`select id, price_cents from packages where slug = 'classic-print'`)).rows[0]!;
    const price = Number(pkg.price_cents);
    // Each voucher holds one booking's price and less than $5 more: two of them never fit.
    const value = Math.ceil(price / 500) * 500;
    const key = loadConfig({}).VOUCHER_CODE_KEY;
    const vouchers = Array.from({ length: VOUCHERS }, () => randomUUID());
    for (const id of vouchers) {
      const hash = codeHash(voucherCode(key, id));
      await db.execute(sql`insert into vouchers (id, code_hash, amount_cents, recipient_name, send_on, status, paid_at,
        expires_at)
        values (${id}::uuid, ${hash}, ${value}, 'Ruby', current_date, 'paid', now(), now() + interval '3 years')`);
      await db.execute(
        sql`insert into voucher_entries (voucher_id, cents, reason) values (${id}::uuid, ${value}, 'sold')`,
      );
    }
    const families = await createCustomers(db, idTokens, VOUCHERS * SPENDERS);

    const carts = await Promise.all(
      families.map(async (f, i) => {
        const voucherId = vouchers[i % VOUCHERS]!;
        const hold = await call(i, f, 'POST', '/bookings/reservation', { slotId: slots[i] });
        expect(hold.status, JSON.stringify(hold.body)).toBe(201);
        const cart = await call(i + 1, f, 'POST', '/cart', {
          reservationId: hold.body.id,
          amount: price,
          packages: [{ id: pkg.id }],
          vouchers: [formatVoucherCode(voucherCode(key, voucherId))],
        });
        expect(cart.status, JSON.stringify(cart.body)).toBe(201);
        expect(cart.body.dueCents).toBe(0);
        return { f, i, voucherId, holdId: hold.body.id as string, cartId: cart.body.id as string };
      }),
    );
    const checkouts = await Promise.all(
      carts.map(async (c) => ({
        ...c,
        res: await call(c.i + 2, c.f, 'POST', `/bookings/reservation/${c.holdId}/checkoutOrder`, { cartId: c.cartId }),
      })),
    );
    for (const id of vouchers) {
      const mine = checkouts.filter((c) => c.voucherId === id);
      expect(mine.map((c) => c.res.status).sort(), JSON.stringify(mine.map((c) => c.res.body))).toEqual([
        201,
        ...Array(SPENDERS - 1).fill(409),
      ]);
      for (const lost of mine.filter((c) => c.res.status === 409)) expect(lost.res.body.code).toBe('VOUCHER_INVALID');
      const winner = mine.find((c) => c.res.status === 201)!;
      const row = (
        await db.execute(sql`select v.owner_user_id,
          (select sum(cents)::int from voucher_entries e where e.voucher_id = v.id) as balance
          from vouchers v where v.id = ${id}::uuid`)
      ).rows[0]!;
      // Spent once, by the family whose checkout won, which it now belongs to; the others wrote nothing.
      expect(row).toEqual({ owner_user_id: winner.f.id, balance: value - price });
    }
    const spent = await db.execute(
      sql`select count(*)::int as n, sum(cents)::int as cents from voucher_entries where reason = 'spent'`,
    );
    expect(spent.rows[0]).toEqual({ n: VOUCHERS, cents: -VOUCHERS * price });
    const confirmed = await db.execute(sql`select count(*)::int as n from bookings where status = 'completed'`);
    expect(confirmed.rows[0]!.n).toBe(VOUCHERS);
    const orders = await db.execute(sql`select count(*)::int as n from orders`);
    expect(orders.rows[0]!.n).toBe(VOUCHERS);
  }, 90_000);
});
