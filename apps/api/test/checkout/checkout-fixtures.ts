import { desc, eq, sql } from 'drizzle-orm';
import { bookings, orders } from '../../src/db/schema/bookings';
import { packages, slots } from '../../src/db/schema/catalogue';
import { mailOutbox } from '../../src/db/schema/mail';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { expect } from 'vitest';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { listenForWebhooks, startSandbox } from '../helpers/payments';
import { createTestApp } from '../helpers/test-app';

/**
 * The checkout suites' world: an app on a manual clock with six weeks of the demo season, at most 3
 * upcoming bookings an account, against the Stripe sandbox with its webhooks; a basket of two
 * packages and an add-on, and the moves from hold to checkout, each on a session of its own.
 */
export async function checkoutWorld() {
  const s = await startSandbox();
  const sandbox = s.sandbox;
  const clock = new ManualClock(new Date());
  const t = await createTestApp({ ...s.env, MAX_UPCOMING_BOOKINGS: '3' }, clock);
  await listenForWebhooks(t.app, sandbox);
  await loadSeason(t.db, demoSeason(clock.now(), { days: 42 }), clock.now());
  const rows = await t.db.execute(sql`
    select s.id from slots s join slot_types st on st.id = s.slot_type_id
    where s.kind = 'session' and st.slug = 'standard' and s.start_at > now() + interval '3 days' order by s.start_at
    limit 40`);
  const sessionIds = rows.rows.map((r) => r.id as string);
  let next = 0;
  const pkgs = await t.db.select().from(packages);
  const who = await createCustomer(t.db, t.app.idTokens);
  const addOns = (await t.app.inject({ url: '/api/v1/product/addons', headers: who.headers })).json().items as {
    id: string;
    priceCents: number;
  }[];
  const catalogue = {
    standardPackages: pkgs
      .filter((p) => !p.slotTypeSlugs)
      .map((p) => ({ id: p.id, priceCents: p.priceCents, name: p.name })),
    petPack: pkgs.find((p) => p.slotTypeSlugs)!.id,
    addOns,
  };

  const post = (url: string, who: TestCustomer, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });
  const holdNew = async (who: TestCustomer, slotId = sessionIds[next++]!) => {
    const res = await post('/api/v1/bookings/reservation', who, { slotId });
    expect(res.statusCode).toBe(201);
    return res.json() as { id: string; slotId: string };
  };
  const basket = () => {
    const [a, b] = catalogue.standardPackages;
    const extra = catalogue.addOns[0]!;
    return {
      packages: [
        { id: a!.id, quantity: 1 },
        { id: b!.id, quantity: 2 },
      ],
      addOns: [{ id: extra.id, quantity: 3 }],
      amount: a!.priceCents + 2 * b!.priceCents + 3 * extra.priceCents,
    };
  };
  const checkout = async (who: TestCustomer) => {
    const hold = await holdNew(who);
    const cart = await post('/api/v1/cart', who, { reservationId: hold.id, ...basket() });
    expect(cart.statusCode).toBe(201);
    const res = await post(`/api/v1/bookings/reservation/${hold.id}/checkoutOrder`, who, { cartId: cart.json().id });
    expect(res.statusCode).toBe(201);
    return {
      hold,
      cart: cart.json(),
      result: res.json() as { bookingId: string; orderId: string; client_secret: string; amountCents: number },
    };
  };
  return {
    t,
    sandbox,
    clock,
    catalogue,
    /** The next free session's id, as holdNew would take it. */
    nextSession: () => sessionIds[next++]!,
    post,
    holdNew,
    basket,
    checkout,
    bookingRow: async (id: string) => (await t.db.select().from(bookings).where(eq(bookings.id, id)))[0]!,
    orderRow: async (id: string) => (await t.db.select().from(orders).where(eq(orders.id, id)))[0]!,
    slotRow: async (id: string) => (await t.db.select().from(slots).where(eq(slots.id, id)))[0]!,
    mailsTo: (email: string) =>
      t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.createdAt)),
    close: async () => {
      await t.close();
      await sandbox.stop();
    },
  };
}
export type CheckoutWorld = Awaited<ReturnType<typeof checkoutWorld>>;
