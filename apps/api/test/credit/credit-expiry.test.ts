import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expireCredit } from '../../src/modules/credit/credit-expiry';
import { createPerson, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';

const MINUTE = 60_000;

/**
 * Account credit lasts as a voucher does (API.md, three years): what is left of a grant when its
 * time is up is entered as 'expired', by the job or first by any move that takes credit out, and
 * is never spent or sent to a card. Credit is spent soonest-expiring first.
 */
describe('account credit expiry', () => {
  let w: StaffDay;
  let price: number;
  let next = 0;

  beforeAll(async () => {
    w = await staffDay({ LOG_LEVEL: 'error' });
    price = Number(
      (await w.t.db.execute(sql`select price_cents from packages where id = ${w.classic}::uuid`)).rows[0]!.price_cents,
    );
  });
  afterAll(async () => {
    await w?.t.close();
  });

  const newFamily = () => createPerson(w.t.db, false, { firstName: 'Eve', lastName: `Expiry${next++}` });
  /** A ledger entry straight in: how each came is tested in account-credit.test.ts. */
  const entry = (family: Person, cents: number, reason: string, expiresInMs: number | null) =>
    w.t.db.execute(sql`insert into credit_entries (user_id, cents, reason, expires_at, created_at)
      values (${family.id}::uuid, ${cents}, ${reason},
        ${expiresInMs === null ? null : new Date(w.clock.now().getTime() + expiresInMs).toISOString()}::timestamptz,
        ${new Date(w.clock.now().getTime() - 1000).toISOString()}::timestamptz)`);
  const ledger = async (family: Person) =>
    (
      await w.t.db.execute(
        sql`select reason, cents from credit_entries where user_id = ${family.id}::uuid order by created_at, id`,
      )
    ).rows;
  const balance = async (family: Person) => (await w.call('GET', '/user/credit', family)).json().balanceCents;

  it('enters what is left of a grant whose time is up, once, whichever process runs the job', async () => {
    const family = await newFamily();
    await entry(family, 10_000, 'cancel_refund', -MINUTE);
    await entry(family, -3_000, 'spent', null);
    await entry(family, 5_000, 'closure_refund', 1000 * 86_400_000);
    // Before the job: the family already sees only what it can spend.
    expect(await balance(family)).toBe(5_000);

    const runs = await Promise.all([expireCredit(w.t.app), expireCredit(w.t.app), expireCredit(w.t.app)]);
    expect(runs.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(1);
    expect((await ledger(family)).filter((e) => e.reason === 'expired')).toEqual([
      { reason: 'expired', cents: -7_000 },
    ]);
    expect(await balance(family)).toBe(5_000);
    // Nothing more is due: a later pass writes nothing.
    await expireCredit(w.t.app);
    expect((await ledger(family)).filter((e) => e.reason === 'expired')).toHaveLength(1);

    const trail = await w.t.db.execute(
      sql`select actor_kind, after from audit_entries
        where action = 'credit.expired' and after->>'userId' = ${family.id}`,
    );
    expect(trail.rows).toEqual([
      { actor_kind: 'system', after: { userId: family.id, balanceCents: 5_000, expiredCents: 7_000 } },
    ]);
  });

  it('spends the soonest-expiring credit first: a spend larger than it leaves nothing of it to expire', async () => {
    const family = await newFamily();
    await entry(family, 4_000, 'cancel_refund', -MINUTE);
    await entry(family, 6_000, 'cancel_refund', 1000 * 86_400_000);
    await entry(family, -5_000, 'spent', null);
    await entry(family, 1_000, 'returned', null);
    // Spent 4,000 net: all of the expired grant, nothing of the other.
    await expireCredit(w.t.app);
    expect((await ledger(family)).filter((e) => e.reason === 'expired')).toEqual([]);
    expect(await balance(family)).toBe(6_000);
  });

  it('prices a cart with the credit still live, and a checkout after the credit lapsed is refused', async () => {
    const family = await newFamily();
    await entry(family, price, 'cancel_refund', 2 * MINUTE);
    const held = await w.call('POST', '/bookings/reservation', family, { slotId: w.sessions[0]!.id });
    expect(held.statusCode, held.body).toBe(201);
    const priceCart = () =>
      w.call('POST', '/cart', family, {
        reservationId: held.json().id,
        amount: price,
        packages: [{ id: w.classic }],
        useCredit: true,
      });
    const cart = await priceCart();
    expect(cart.statusCode, cart.body).toBe(201);
    expect(cart.json().dueCents).toBe(0);

    w.clock.advance(3 * MINUTE);
    const checkout = await w.call('POST', `/bookings/reservation/${held.json().id}/checkoutOrder`, family, {
      cartId: cart.json().id,
    });
    expect(checkout.statusCode, checkout.body).toBe(409);
    expect(checkout.json().code).toBe('CART_INVALID');
    expect(await balance(family)).toBe(0);
    expect(
      (await w.t.db.execute(sql`select count(*)::int as n from orders where user_id = ${family.id}::uuid`)).rows,
    ).toEqual([{ n: 0 }]);

    // Priced again, the cart spends none of it and the card pays.
    const again = await priceCart();
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().dueCents).toBe(price);
  });
});
