import { randomUUID } from 'node:crypto';
import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { packages } from '../../src/db/schema/catalogue';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { bearer, createSignedInUser } from '../helpers/accounts';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** A family registered with a real password (deletion checks it), signed in. */
export interface Family {
  id: string;
  email: string;
  refreshToken: string;
  headers: { authorization: string };
}

/** The privacy tests' world: the app on a manual clock, the demo season, the Stripe sandbox. */
export interface PrivacyWorld {
  t: TestApp;
  clock: ManualClock;
  sandbox: StripeSandbox;
  /** Standard sessions in Sydney at least five days ahead; each test takes its own. */
  sessions: string[];
  family(name?: { firstName: string; lastName: string }): Promise<Family>;
  /** Hold, cart, checkout and, with `pay`, the card through the sandbox: the booking as the family sees it. */
  book(who: Family, pay?: boolean): Promise<{ id: string; reference: string; amountCents: number }>;
  call(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    url: string,
    who: { headers: Record<string, string> } | null,
    payload?: object,
  ): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

export async function privacyWorld(env: Record<string, string> = {}): Promise<PrivacyWorld> {
  const s = await startSandbox();
  const clock = new ManualClock(new Date());
  const t = await createTestApp({ ...s.env, MAX_UPCOMING_BOOKINGS: '50', ...env }, clock);
  await listenForWebhooks(t.app, s.sandbox);
  // Six weeks: the demo's own season ends on Christmas Eve, and from about 19 December has too few Sydney sessions five
  // days out.
  await loadSeason(t.db, demoSeason(clock.now(), { days: 42 }), clock.now());
  const sessions = (
    await t.db.execute(sql`
      select s.id from slots s join slot_types st on st.id = s.slot_type_id join locations l on l.id = s.location_id
      where s.kind = 'session' and st.slug = 'standard' and l.slug = 'sydney-pitt-street' and s.start_at > now() +
      interval '5 days'
      order by s.start_at limit 40`)
  ).rows.map((r) => r.id as string);
  const [pkg] = await t.db.select().from(packages).where(eq(packages.slug, 'classic-print'));
  const call: PrivacyWorld['call'] = (method, url, who, payload) =>
    t.app.inject({ method, url: `/api/v1${url}`, headers: who?.headers ?? {}, ...(payload ? { payload } : {}) });

  return {
    t,
    clock,
    sandbox: s.sandbox,
    sessions,
    async family(name = { firstName: 'Wilhelmina', lastName: 'Quixote' }) {
      const email = `family-${randomUUID().slice(0, 8)}@kringle.test`;
      const u = await createSignedInUser(t.app, t.db, email, { verified: true });
      await t.db.execute(
        sql`update users set first_name =
${name.firstName}, last_name = ${name.lastName}, phone = '+61 400 987 654' where id = ${u.id}::uuid`,
      );
      return { id: u.id, email, refreshToken: u.refreshToken, headers: bearer(u.idToken) };
    },
    async book(who, pay = true) {
      const hold = (await call('POST', '/bookings/reservation', who, { slotId: sessions.shift()! })).json();
      const cart = (
        await call('POST', '/cart', who, {
          reservationId: hold.id,
          amount: pkg!.priceCents,
          packages: [{ id: pkg!.id }],
        })
      ).json();
      const checkout = (
        await call('POST', `/bookings/reservation/${hold.id}/checkoutOrder`, who, { cartId: cart.id })
      ).json();
      if (pay) {
        await payWithCard(s.sandbox, checkout.client_secret, CARDS.success);
        await s.sandbox.webhooksIdle();
      }
      return (await call('GET', `/bookings/${checkout.bookingId}`, who)).json();
    },
    call,
    async close() {
      await t?.close();
      await s.sandbox?.stop();
    },
  };
}
