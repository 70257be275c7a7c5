import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../src/db/client';
import { packages } from '../../src/db/schema/catalogue';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import type { TestCustomer } from '../helpers/customers';

export interface Answer {
  status: number;
  body: Record<string, unknown> & { code?: string };
  retryAfter: string | null;
}
export type Call = (method: 'GET' | 'POST', url: string, who?: TestCustomer, payload?: object) => Promise<Answer>;

/** Through `app.inject`. */
export const injectCall =
  (app: FastifyInstance): Call =>
  async (method, url, who, payload) => {
    const res = await app.inject({ method, url, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });
    return {
      status: res.statusCode,
      body: res.body ? res.json() : {},
      retryAfter: (res.headers['retry-after'] as string | undefined) ?? null,
    };
  };

/** Over HTTP to a real API process. */
export const httpCall =
  (base: () => string): Call =>
  async (method, url, who, payload) => {
    const res = await fetch(`${base()}${url}`, {
      method,
      headers: { ...(who?.headers ?? {}), ...(payload ? { 'content-type': 'application/json' } : {}) },
      ...(payload ? { body: JSON.stringify(payload) } : {}),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : {}, retryAfter: res.headers.get('retry-after') };
  };

/** The demo season, and the standard sessions from three days on (free of the lead time), in order. */
export async function seedSessions(db: Db, now: Date, count: number): Promise<string[]> {
  await loadSeason(db, demoSeason(now, { days: 42 }), now);
  const rows = await db.execute(sql`
    select s.id from slots s join slot_types st on st.id = s.slot_type_id
    where s.kind = 'session' and st.slug = 'standard' and s.start_at > ${now.toISOString()}::timestamptz + interval
    '3 days'
    order by s.start_at limit ${count}`);
  return rows.rows.map((r) => r.id as string);
}

/** One standard package: the cheapest valid basket. */
export async function basketFor(db: Db) {
  const [pkg] = await db
    .select()
    .from(packages)
    .where(sql`${packages.slotTypeSlugs} is null`)
    .limit(1);
  return { packages: [{ id: pkg!.id, quantity: 1 }], addOns: [], amount: pkg!.priceCents };
}

export interface CheckoutStart {
  reservationId: string;
  cartId: string;
  checkoutUrl: string;
}

/** Hold and cart, ready for checkoutOrder (which the test drives itself). */
export async function holdAndCart(
  call: Call,
  who: TestCustomer,
  slotId: string,
  basket: object,
): Promise<CheckoutStart> {
  const hold = await call('POST', '/api/v1/bookings/reservation', who, { slotId });
  if (hold.status !== 201) throw new Error(`hold: ${hold.status} ${JSON.stringify(hold.body)}`);
  const reservationId = hold.body.id as string;
  const cart = await call('POST', '/api/v1/cart', who, { reservationId, ...basket });
  if (cart.status !== 201) throw new Error(`cart: ${cart.status} ${JSON.stringify(cart.body)}`);
  return {
    reservationId,
    cartId: cart.body.id as string,
    checkoutUrl: `/api/v1/bookings/reservation/${reservationId}/checkoutOrder`,
  };
}

/**
 * Polls until `check` returns a value (not undefined), or fails after `timeoutMs`: waiting on a condition, never on a
 * fixed sleep.
 */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (err) {
      last = err;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}${last ? `: ${String(last)}` : ''}`);
}
