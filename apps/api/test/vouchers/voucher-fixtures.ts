import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { createPerson, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';

/** Waits for `read` to answer what `ok` accepts (a webhook's effect), up to 10 s. */
export async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (let i = 0; i < 100; i++) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting: ${JSON.stringify(await read())}`);
}

/**
 * The gift voucher suites' day (decision 0112): the staff day's app and sessions against the Stripe
 * sandbox with its webhooks, and the moves a family makes with vouchers, each session used once.
 */
export async function voucherDay() {
  const s = await startSandbox();
  const sandbox: StripeSandbox = s.sandbox;
  const w: StaffDay = await staffDay({ ...s.env, LOG_LEVEL: process.env.DEBUG_LOG ?? 'error' });
  await listenForWebhooks(w.t.app, sandbox);
  const price = Number(
    (await w.t.db.execute(sql`select price_cents from packages where id = ${w.classic}::uuid`)).rows[0]!.price_cents,
  );
  let next = 0;
  /** Every voucher bought, for the liability report's check. */
  const sold: { id: string; buyer: Person }[] = [];

  const family = (lastName: string) => createPerson(w.t.db, false, { firstName: 'Nana', lastName });

  /** Buys and pays a voucher; answers it as the buyer's list shows it once live. */
  async function bought(buyer: Person, amountCents: number, extra: object = {}) {
    const res = await w.call('POST', '/vouchers', buyer, { amountCents, recipientName: 'Ruby', ...extra });
    expect(res.statusCode, res.body).toBe(201);
    const { voucherOrderId, client_secret } = res.json();
    sold.push({ id: voucherOrderId, buyer });
    expect((await payWithCard(sandbox, client_secret, CARDS.success)).status).toBe('succeeded');
    return until(
      async () =>
        (await w.call('GET', '/vouchers', buyer)).json().items.find((v: { id: string }) => v.id === voucherOrderId),
      (v) => v?.status === 'active',
    );
  }

  /** Holds the next session and makes a cart of one Classic Print with `body`'s extras. */
  async function cart(who: Person, body: object) {
    const held = await w.call('POST', '/bookings/reservation', who, { slotId: w.sessions[next++]!.id });
    expect(held.statusCode, held.body).toBe(201);
    const res = await w.call('POST', '/cart', who, {
      reservationId: held.json().id,
      amount: price,
      packages: [{ id: w.classic }],
      ...body,
    });
    return { holdId: held.json().id as string, res };
  }
  const checkout = (who: Person, holdId: string, cartId: string) =>
    w.call('POST', `/bookings/reservation/${holdId}/checkoutOrder`, who, { cartId });
  const bookingStatus = async (who: Person, bookingId: string) =>
    (await w.call('GET', `/bookings/${bookingId}`, who)).json().status as string;
  /** Checks out and pays the card's part; answers the checkout once the booking is confirmed. */
  async function checkoutAndPay(who: Person, holdId: string, cartId: string) {
    const open = await checkout(who, holdId, cartId);
    expect((await payWithCard(sandbox, open.json().client_secret, CARDS.success)).status).toBe('succeeded');
    await until(
      () => bookingStatus(who, open.json().bookingId),
      (s) => s === 'completed',
    );
    return open;
  }
  const lookUp = async (who: Person, code: string) => (await w.call('GET', `/vouchers/${code}`, who)).json();

  return {
    w,
    sandbox,
    price,
    sold,
    family,
    bought,
    cart,
    checkout,
    checkoutAndPay,
    bookingStatus,
    lookUp,
    close: async () => {
      await w.t.close();
      await sandbox.stop();
    },
  };
}
export type VoucherDay = Awaited<ReturnType<typeof voucherDay>>;
