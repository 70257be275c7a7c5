import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { basketFor } from '../faults/booking-flow';
import { createCustomers, type TestCustomer } from '../helpers/customers';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * Decision 0069: an unpaid checkout still holds its session, so it counts against its address's
 * cap; once paid it is a booking, no longer a hold, and its place goes back at once.
 */
describe('sessions held per address: checkouts', () => {
  let t: TestApp;
  let sandbox: StripeSandbox;
  let day: string[];

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    const clock = new ManualClock(new Date());
    t = await createTestApp({ ...s.env, RATE_LIMIT_MODE: 'on', HOLD_ADDRESS_LIMIT: '2' }, clock);
    await listenForWebhooks(t.app, sandbox);
    await loadSeason(t.db, demoSeason(clock.now(), { days: 21 }), clock.now());
    const rows = await t.db.execute(sql`
      select s.id from slots s join locations l on l.id = s.location_id
      where s.kind = 'session' and (s.start_at at time zone l.timezone)::date = (
        select (min(f.start_at) at time zone l.timezone)::date from slots f where f.location_id = l.id and f.kind =
        'session' and f.start_at > now() + interval '3 days')
      order by l.name, s.start_at limit 3`);
    day = rows.rows.map((r) => r.id as string);
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.stop();
  });

  const post = (url: string, who: TestCustomer, payload: object, remoteAddress = '127.0.0.1') =>
    t.app.inject({ method: 'POST', url, remoteAddress, headers: who.headers, payload });
  const hold = (who: TestCustomer, slotId: string) =>
    post('/api/v1/bookings/reservation', who, { slotId }, '10.69.5.1');

  it('counts an unpaid checkout, and frees its place once it is paid', async () => {
    const [payer, second, third] = await createCustomers(t.db, t.app.idTokens, 3);
    const held = await hold(payer!, day[0]!);
    expect(held.statusCode).toBe(201);
    const cart = await post('/api/v1/cart', payer!, { reservationId: held.json().id, ...(await basketFor(t.db)) });
    expect(cart.statusCode, cart.body).toBe(201);
    const checkout = await post(`/api/v1/bookings/reservation/${held.json().id}/checkoutOrder`, payer!, {
      cartId: cart.json().id,
    });
    expect(checkout.statusCode, checkout.body).toBe(201);
    expect((await hold(second!, day[1]!)).statusCode).toBe(201);
    // The checkout waiting for payment and the hold: the address's two.
    expect((await hold(third!, day[2]!)).json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect((await payWithCard(sandbox, checkout.json().client_secret, CARDS.success)).status).toBe('succeeded');
    await sandbox.webhooksIdle();
    expect((await hold(third!, day[2]!)).statusCode).toBe(201);
  });
});
