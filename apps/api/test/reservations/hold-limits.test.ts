import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../src/lib/clock';
import { basketFor, holdAndCart, injectCall, seedSessions, type Call } from '../faults/booking-flow';
import { createCustomer, reauthenticate, type TestCustomer } from '../helpers/customers';
import { startSandbox } from '../helpers/payments';
import { createTestApp, type TestApp } from '../helpers/test-app';

const NOW = new Date('2026-12-01T00:00:00Z');
const MINUTE = 60_000;

/**
 * API.md "Abuse limits" (issue 36, decision 0059): one live hold or unpaid checkout per family;
 * going back and forth is never refused, a churn of releases earns a cool-down.
 */
describe('hold limits', () => {
  let t: TestApp;
  let sandbox: StripeSandbox;
  let clock: ManualClock;
  let call: Call;
  let sessions: string[];
  let basket: Awaited<ReturnType<typeof basketFor>>;
  let family: TestCustomer;
  let next = 0;

  const hold = (slotId: string, who = family) => call('POST', '/api/v1/bookings/reservation', who, { slotId });
  const cancel = (id: string) => call('POST', `/api/v1/bookings/reservation/${id}/cancel`, family);
  const fresh = () => sessions[next++]!;
  const holdThenRelease = async (slotId: string) => {
    const held = await hold(slotId);
    expect(held.status).toBe(201);
    expect((await cancel(held.body.id as string)).status).toBe(200);
  };

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    clock = new ManualClock(NOW);
    t = await createTestApp(s.env, clock);
    call = injectCall(t.app);
    sessions = await seedSessions(t.db, NOW, 40);
    basket = await basketFor(t.db);
  });
  beforeEach(async () => {
    clock.set(NOW);
    family = await createCustomer(t.db, t.app.idTokens);
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.stop();
  });

  it(
    'refuses another session with HOLD_LIMIT while the first hold lives; the same session is that hold ' + '(200)',
    async () => {
      const [a, b] = [fresh(), fresh()];
      const first = await hold(a);
      expect(first.status).toBe(201);
      const other = await hold(b);
      expect(other.status).toBe(409);
      expect(other.body).toMatchObject({
        code: 'HOLD_LIMIT',
        error: expect.stringContaining('already have a session on hold'),
      });
      expect((await call('GET', `/api/v1/bookings/reservation/${first.body.id}`, family)).body.status).toBe('active');
      const again = await hold(a);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(first.body);
      // Nobody else is held back by it.
      expect((await hold(b, await createCustomer(t.db, t.app.idTokens))).status).toBe(201);
    },
  );

  it('counts an unpaid checkout as the family’s one hold', async () => {
    const [a, b] = [fresh(), fresh()];
    const started = await holdAndCart(call, family, a, basket);
    const checkout = await call('POST', started.checkoutUrl, family, { cartId: started.cartId });
    expect(checkout.status).toBe(201);
    expect((await hold(b)).body.code).toBe('HOLD_LIMIT');
    const own = await hold(a);
    expect(own.status).toBe(200);
    expect(own.body).toMatchObject({ id: started.reservationId, status: 'checked_out' });
  });

  it('allows a new hold once the first is released or has lapsed', async () => {
    const [a, b, c] = [fresh(), fresh(), fresh()];
    await holdThenRelease(a);
    expect((await hold(b)).status).toBe(201);
    clock.advance(10 * MINUTE);
    family = await reauthenticate(t.app.idTokens, family);
    expect((await hold(c)).status).toBe(201);
  });

  it('never refuses a family going back and forth: three releases, then a hold at once', async () => {
    const [a, b] = [fresh(), fresh()];
    for (const slotId of [a, b, a]) await holdThenRelease(slotId);
    const back = await hold(b);
    expect(back.status).toBe(201);
    // The session it holds is still that hold, however many releases came before.
    expect((await hold(b)).status).toBe(200);
  });

  it(
    'answers a churn (a fourth release within 10 minutes) with HOLD_COOLDOWN and Retry-After, then lets the family ' +
      'hold again',
    async () => {
      const [a, b] = [fresh(), fresh()];
      for (const slotId of [a, b, a, b]) {
        await holdThenRelease(slotId);
        clock.advance(MINUTE);
      }
      // Releases at 0, 1, 2 and 3 minutes; now is 4 minutes: the first leaves the window at 10.
      for (const slotId of [a, fresh()]) {
        const refused = await hold(slotId);
        expect(refused.status).toBe(409);
        expect(refused.body).toMatchObject({ code: 'HOLD_COOLDOWN', error: expect.stringContaining('wait 6 minutes') });
        expect(refused.retryAfter).toBe('360');
      }
      clock.advance(6 * MINUTE - 1000);
      family = await reauthenticate(t.app.idTokens, family);
      expect((await hold(a)).retryAfter).toBe('1');
      clock.advance(1000);
      expect((await hold(a)).status).toBe(201);
    },
  );

  it('counts the family’s own releases only, and none of another family’s', async () => {
    const [a, b] = [fresh(), fresh()];
    for (const slotId of [a, b, a, b]) await holdThenRelease(slotId);
    expect((await hold(a, await createCustomer(t.db, t.app.idTokens))).status).toBe(201);
  });
});
