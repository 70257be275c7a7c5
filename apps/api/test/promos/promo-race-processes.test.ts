import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import type { IdTokens } from '../../src/modules/accounts/id-tokens';
import { startApiProcesses, type ApiProcesses } from '../helpers/api-processes';
import { createCustomers, type TestCustomer } from '../helpers/customers';
import { startSandbox } from '../helpers/payments';
import { createProcessesDatabase } from '../helpers/processes-database';

const USES = 5;
const FAMILIES = 12;

/**
 * Decision 0106: a code's uses are counted under its row lock in the checkout's transaction, so
 * families racing for its last uses through three API processes on one database take exactly
 * `maxUses` of them, whichever process each lands on.
 */
describe('a promo code’s last uses, raced across three API processes', () => {
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

  const call = async (process: number, who: TestCustomer, path: string, body: object) => {
    const res = await fetch(`${api.urls[process % 3]}/api/v1${path}`, {
      method: 'POST',
      headers: { ...who.headers, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as Record<string, unknown> };
  };

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
