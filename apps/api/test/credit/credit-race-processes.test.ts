import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import type { IdTokens } from '../../src/modules/accounts/id-tokens';
import { startCheckoutRace, type CheckoutRace } from '../helpers/checkout-race';
import { createCustomers, type TestCustomer } from '../helpers/customers';

const FAMILIES = 6;
const TRIES = 3;

/**
 * Decision 0111: credit is taken in the checkout's transaction, under the family's credit lock and
 * the hold's row lock, so a checkout sent again and again through three API processes on one
 * database spends the family's credit once; the next cart finds none left.
 */
describe('account credit spent through three API processes at once', () => {
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
