import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packages } from '../../src/db/schema/catalogue';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { metricsRegistry } from '../../src/modules/operations/metrics';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** One sample's value in the Prometheus text, by its series exactly as printed (0 when absent). */
const sample = (text: string, series: string) =>
  Number(
    text
      .split('\n')
      .find((l) => l.startsWith(series + ' '))
      ?.slice(series.length + 1) ?? 0,
  );

describe('payment metrics (the real Stripe sandbox and its webhooks)', () => {
  let t: TestApp;
  let sandbox: StripeSandbox;
  let sessionId: string;
  let pkg: { id: string; priceCents: number };

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    const clock = new ManualClock(new Date());
    t = await createTestApp(s.env, clock);
    await listenForWebhooks(t.app, sandbox);
    await loadSeason(t.db, demoSeason(clock.now(), { days: 42 }), clock.now());
    const rows = await t.db.execute(sql`
      select s.id from slots s join slot_types st on st.id = s.slot_type_id
      where s.kind = 'session' and st.slug = 'standard' and s.start_at > now() + interval '3 days' order by s.start_at
      limit 1`);
    sessionId = rows.rows[0]!.id as string;
    pkg = (await t.db.select().from(packages)).find((p) => !p.slotTypeSlugs)!;
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.stop();
  });

  const post = (url: string, who: TestCustomer, payload?: object) =>
    t.app.inject({ method: 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });

  it('counts a declined and a succeeded payment by outcome, and sets the webhook lag', async () => {
    const before = await metricsRegistry.metrics();
    const who = await createCustomer(t.db, t.app.idTokens);
    const hold = (await post('/api/v1/bookings/reservation', who, { slotId: sessionId })).json();
    const cart = (
      await post('/api/v1/cart', who, {
        reservationId: hold.id,
        packages: [{ id: pkg.id, quantity: 1 }],
        addOns: [],
        amount: pkg.priceCents,
      })
    ).json();
    const result = (
      await post(`/api/v1/bookings/reservation/${hold.id}/checkoutOrder`, who, { cartId: cart.id })
    ).json();
    expect(result.client_secret, JSON.stringify({ hold, cart, result })).toBeTypeOf('string');
    expect((await payWithCard(sandbox, result.client_secret, CARDS.declined)).status).toBe('requires_payment_method');
    await sandbox.webhooksIdle();
    expect((await payWithCard(sandbox, result.client_secret, CARDS.success)).status).toBe('succeeded');
    await sandbox.webhooksIdle();
    const after = await metricsRegistry.metrics();
    for (const outcome of ['failed', 'succeeded']) {
      const series = `kringle_payments_total{outcome="${outcome}"}`;
      expect(sample(after, series) - sample(before, series), outcome).toBe(1);
    }
    expect(after).toMatch(/^kringle_webhook_lag_seconds \d+(\.\d+)?$/m);
    expect(sample(after, 'kringle_webhook_lag_seconds')).toBeLessThan(60);
  });
});
