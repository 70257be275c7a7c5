import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { eq, sql } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import { packages } from '../../src/db/schema/catalogue';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import type { TestCustomer } from '../helpers/customers';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** Shared by the security suite (not a test file itself). */

export const UUID_ZERO = '00000000-0000-4000-8000-000000000000';

/** API.md's error body, exactly: a readable string, a machine code, optional details. */
export function expectContractError(res: LightMyRequestResponse, status: number, code?: string): void {
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json() as Record<string, unknown>;
  expect(
    Object.keys(body).every((k) => ['error', 'code', 'details'].includes(k)),
    res.body,
  ).toBe(true);
  expect(typeof body.error).toBe('string');
  expect(body.code).toEqual(code ?? expect.stringMatching(/^[A-Z_]+$/));
  expect(res.body).not.toMatch(/\bat \S+\.[jt]s:\d+|node_modules|postgres|relation "|syntax error at/i);
}

export interface Operation {
  method: string;
  /** OpenAPI template, e.g. `/api/v1/bookings/{id}`. */
  path: string;
  pathParams: string[];
  /** Needs an ID token (`security` names `idToken`). */
  token: boolean;
}

/** Every operation of the served OpenAPI document: the suite reads the routes from it, so none is forgotten. */
export async function operations(app: FastifyInstance): Promise<Operation[]> {
  const res = await app.inject('/api/v1/openapi.json');
  const doc = res.json() as {
    paths: Record<
      string,
      Record<string, { security?: Record<string, unknown>[]; parameters?: { in: string; name: string }[] }>
    >;
  };
  return Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({
      method: method.toUpperCase(),
      path,
      pathParams: (op.parameters ?? []).filter((p) => p.in === 'path').map((p) => p.name),
      token: (op.security ?? []).some((s) => 'idToken' in s),
    })),
  );
}

export const fillPath = (template: string, values: Record<string, string>) =>
  template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (!value) throw new Error(`no value for {${name}} in ${template}`);
    return value;
  });

/**
 * A checksum per table of everything a customer can own or change: equal before and after
 * an attack means the attack changed nothing (jobs are off in tests, so nothing else writes).
 */
export async function stateChecksum(app: FastifyInstance): Promise<Record<string, string>> {
  const tables = [
    'users',
    'refresh_tokens',
    'action_codes',
    'reservations',
    'carts',
    'bookings',
    'orders',
    'refunds',
    'slots',
    'mail_outbox',
    'stripe_events',
    'waitlist_entries',
  ];
  const out: Record<string, string> = {};
  for (const table of tables) {
    const res = await app.pool.query<{ sum: string | null }>(
      `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum from ${table} t`,
    );
    out[table] = res.rows[0]!.sum ?? '';
  }
  return out;
}

export interface BookingWorld {
  t: TestApp;
  sandbox: StripeSandbox;
  clock: ManualClock;
  post(url: string, who: TestCustomer, payload?: object): Promise<LightMyRequestResponse>;
  get(url: string, who: TestCustomer): Promise<LightMyRequestResponse>;
  /** Hold, cart and checkout; with `pay`, the sandbox card and its webhook too. */
  book(
    who: TestCustomer,
    opts?: { pay?: boolean },
  ): Promise<{ bookingId: string; orderId: string; reservationId: string; cartId: string; clientSecret: string }>;
  /** A fresh live hold and a priced cart on it (not checked out). */
  holdAndCart(who: TestCustomer): Promise<{ reservationId: string; cartId: string; slotId: string }>;
  close(): Promise<void>;
}

/** The real app with the demo season and the Stripe sandbox delivering webhooks to it. */
export async function bookingWorld(env: Record<string, string> = {}): Promise<BookingWorld> {
  const s = await startSandbox();
  const clock = new ManualClock(new Date());
  const t = await createTestApp({ ...s.env, MAX_UPCOMING_BOOKINGS: '20', ...env }, clock);
  await listenForWebhooks(t.app, s.sandbox);
  await loadSeason(t.db, demoSeason(clock.now(), { days: 42 }), clock.now());
  const rows = await t.db.execute(sql`
    select s.id from slots s join slot_types st on st.id = s.slot_type_id
    where s.kind = 'session' and st.slug = 'standard' and s.start_at > now() + interval '5 days'
    order by s.start_at limit 40`);
  const free = rows.rows.map((r) => r.id as string);
  const [pkg] = await t.db.select().from(packages).where(eq(packages.slug, 'classic-print'));

  const post = (url: string, who: TestCustomer, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });
  const get = (url: string, who: TestCustomer) => t.app.inject({ url, headers: who.headers });

  async function holdAndCart(who: TestCustomer) {
    const slotId = free.shift()!;
    const hold = await post('/api/v1/bookings/reservation', who, { slotId });
    expect(hold.statusCode, hold.body).toBe(201);
    const cart = await post('/api/v1/cart', who, {
      reservationId: hold.json().id,
      amount: pkg!.priceCents,
      packages: [{ id: pkg!.id, quantity: 1 }],
      addOns: [],
    });
    expect(cart.statusCode, cart.body).toBe(201);
    return { reservationId: hold.json().id as string, cartId: cart.json().id as string, slotId };
  }

  async function book(who: TestCustomer, opts: { pay?: boolean } = {}) {
    const { reservationId, cartId } = await holdAndCart(who);
    const checkout = await post(`/api/v1/bookings/reservation/${reservationId}/checkoutOrder`, who, { cartId });
    expect(checkout.statusCode, checkout.body).toBe(201);
    const {
      bookingId,
      orderId,
      client_secret: clientSecret,
    } = checkout.json() as { bookingId: string; orderId: string; client_secret: string };
    if (opts.pay) {
      expect((await payWithCard(s.sandbox, clientSecret, CARDS.success)).status).toBe('succeeded');
      await s.sandbox.webhooksIdle();
      expect((await get(`/api/v1/bookings/${bookingId}`, who)).json().status).toBe('completed');
    }
    return { bookingId, orderId, reservationId, cartId, clientSecret };
  }

  return {
    t,
    sandbox: s.sandbox,
    clock,
    post,
    get,
    book,
    holdAndCart,
    async close() {
      await t.close();
      await s.sandbox.stop();
    },
  };
}

export const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
};

/**
 * Times two kinds of request in ABBA order (so drift in machine load falls on both alike) and
 * returns each kind's median: robust to the outliers a loaded CI machine produces.
 */
export async function interleavedMedians(
  rounds: number,
  a: () => Promise<unknown>,
  b: () => Promise<unknown>,
  /** Untimed, after each sample: waits for work a request left running, so it never overlaps the next sample. */
  settle: () => Promise<unknown> = async () => {},
): Promise<{ a: number; b: number }> {
  const ta: number[] = [];
  const tb: number[] = [];
  const time = async (fn: () => Promise<unknown>, into: number[]) => {
    const start = performance.now();
    await fn();
    into.push(performance.now() - start);
    await settle();
  };
  for (let i = 0; i < rounds; i++) {
    if (i % 2 === 0) {
      await time(a, ta);
      await time(b, tb);
    } else {
      await time(b, tb);
      await time(a, ta);
    }
  }
  return { a: median(ta), b: median(tb) };
}

/** True when two medians differ by less than `ratio` either way: the test's notion of "indistinguishable". */
export const indistinguishable = (m: { a: number; b: number }, ratio: number) =>
  Math.max(m.a, m.b) / Math.min(m.a, m.b) < ratio;
