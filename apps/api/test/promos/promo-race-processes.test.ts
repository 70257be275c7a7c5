import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import type { IdTokens } from '../../src/modules/accounts/id-tokens';
import { startCheckoutRace, type CheckoutRace } from '../helpers/checkout-race';
import { createCustomers, type TestCustomer } from '../helpers/customers';

const USES = 5;
const FAMILIES = 12;

/**
 * Decision 0106: a code's uses are counted under its row lock in the checkout's transaction, so
 * families racing for its last uses through three API processes on one database take exactly
 * `maxUses` of them, whichever process each lands on.
 */
describe('a promo code’s last uses, raced across three API processes', () => {
  let race: CheckoutRace;
  let db: Db;
  let idTokens: IdTokens;

  beforeAll(async () => {
    race = await startCheckoutRace();
    ({ db, idTokens } = race);
  }, 120_000);
  afterAll(async () => race?.close());

  const call = (process: number, who: TestCustomer, path: string, body: object) =>
    race.call(process, who, 'POST', path, body);

  it(`${FAMILIES} families, ${USES} uses: exactly ${USES} take it, the rest hear it is used up`, async () => {
    await db.execute(sql`insert into promo_codes (code, kind, value, valid_from, valid_to, max_uses)
      values ('RACE5', 'amount', 500, now() - interval '1 hour', now() + interval '1 day', ${USES})`);
    const slots = (
      await db.execute(sql`select s.id from slots s where s.kind = 'session' and s.start_at > now() + interval '2 days'
        order by s.start_at limit ${FAMILIES}`)
    ).rows.map((r) => r.id as string);
    const pkg = (await db.execute(sql`select id, price_cents from packages where slug = 'classic-print'`)).rows[0]!;
    const families = await createCustomers(db, idTokens, FAMILIES);
    const carts = await Promise.all(
      families.map(async (f, i) => {
        const hold = await call(i, f, '/bookings/reservation', { slotId: slots[i] });
        expect(hold.status, JSON.stringify(hold.body)).toBe(201);
        const cart = await call(i + 1, f, '/cart', {
          reservationId: hold.body.id,
          amount: Number(pkg.price_cents),
          packages: [{ id: pkg.id }],
          promoCode: 'race5',
        });
        expect(cart.status, JSON.stringify(cart.body)).toBe(201);
        return { f, i, holdId: hold.body.id as string, cartId: cart.body.id as string };
      }),
    );
    const answers = await Promise.all(
      carts.map((c) => call(c.i + 2, c.f, `/bookings/reservation/${c.holdId}/checkoutOrder`, { cartId: c.cartId })),
    );
    const taken = answers.filter((a) => a.status === 201);
    expect(taken).toHaveLength(USES);
    for (const a of answers.filter((x) => x.status !== 201)) {
      expect(a.status).toBe(409);
      expect(a.body).toMatchObject({
        code: 'PROMO_INVALID',
        details: [{ path: 'body.promoCode', message: 'used_up' }],
      });
    }
    for (const a of taken) expect(a.body.amountCents).toBe(Number(pkg.price_cents) - 500);
    const uses =
      await db.execute(sql`select count(*)::int as n from orders o join promo_codes p on p.id = o.promo_code_id
      where p.code = 'RACE5'`);
    expect(uses.rows[0]!.n).toBe(USES);
  }, 60_000);
});
