import { localTimeOf, zonedToInstant } from '@kringle/contracts/dates';
import type { LiveLocation, LiveSnapshot } from '@kringle/contracts/live';
import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { expectContractError } from '../security/security-fixtures';
import { createPerson, SYDNEY, staffDay, type Person, type StaffDay } from '../staff/staff-fixtures';

/** The shared figures are at most 2 s old: a test waits this long to see its change. */
const AFTER_A_READ_MS = 2_100;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Issue 50's Live page (decision 0094): counts from PostgreSQL after holds, bookings, closures and payments. */
describe('live figures', () => {
  let w: StaffDay;
  let sandbox: StripeSandbox;
  let manager: Person;
  let classicCents: number;

  const live = async (query = '', who: Person = manager): Promise<LiveSnapshot> => {
    const res = await w.call('GET', `/staff/live${query}`, who);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as LiveSnapshot;
  };
  const sydneyNow = async () => {
    await sleep(AFTER_A_READ_MS);
    return (await live(`?locationId=${w.sydney}`)).locations[0]!;
  };
  /** A family's hold, cart and checkout of the session: its client secret. */
  const checkout = async (family: Person, slotId: string) => {
    const hold = await w.call('POST', '/bookings/reservation', family, { slotId });
    expect(hold.statusCode, hold.body).toBe(201);
    const reservationId = hold.json().id as string;
    const cart = await w.call('POST', '/cart', family, {
      reservationId,
      packages: [{ id: w.classic, quantity: 1 }],
      addOns: [],
      amount: classicCents,
    });
    expect(cart.statusCode, cart.body).toBe(201);
    const order = await w.call('POST', `/bookings/reservation/${reservationId}/checkoutOrder`, family, {
      cartId: cart.json().id,
    });
    expect(order.statusCode, order.body).toBe(201);
    return order.json().client_secret as string;
  };

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    w = await staffDay(s.env);
    await listenForWebhooks(w.t.app, sandbox);
    manager = await createPerson(
      w.t.db,
      true,
      { firstName: 'Mo', lastName: 'Manager' },
      { role: 'manager', mfaEnrolled: true },
    );
    classicCents = (await w.t.db.execute(sql`select price_cents from packages where id = ${w.classic}::uuid`)).rows[0]!
      .price_cents as number;
    // 10:30 in Sydney: the day's first sessions are over.
    w.clock.set(zonedToInstant(w.day, '10:30', SYDNEY));
  });
  afterAll(async () => {
    await w?.t.close();
    await sandbox?.stop();
  });

  it("counts today's sessions once each, and moves with a hold, a closure, a declined card and a payment", async () => {
    const before = (await live(`?locationId=${w.sydney}`)).locations[0]!;
    const { rows } = await w.t.db.execute(sql`
      select count(*)::int as n, count(*) filter (where end_at > ${w.clock.now().toISOString()}::timestamptz)::int as
      ahead
      from slots where location_id = ${w.sydney}::uuid and kind = 'session'
        and start_at >= ${zonedToInstant(w.day, '00:00', SYDNEY).toISOString()}::timestamptz
        and start_at < ${zonedToInstant(w.day, '23:59', SYDNEY).toISOString()}::timestamptz`);
    const { n: sessions, ahead } = rows[0] as { n: number; ahead: number };
    expect(ahead).toBeLessThan(sessions);
    expect(before).toMatchObject({
      id: w.sydney,
      name: 'Kringle Sydney, Pitt Street',
      sold: 0,
      held: 0,
      free: ahead,
      closed: 0,
      line: { waiting: 0, admitted: 0 },
      paymentsLast5Min: 0,
      failedPaymentsLast5Min: 0,
    });

    const s = w.sessions;
    // A plain hold; a checkout declined once (still held); two sessions closed by a manager.
    expect((await w.call('POST', '/bookings/reservation', w.family, { slotId: s[12]!.id })).statusCode).toBe(201);
    const payer = await createPerson(w.t.db, false);
    const secret = await checkout(payer, s[13]!.id);
    expect((await payWithCard(sandbox, secret, CARDS.declined)).status).toBe('requires_payment_method');
    await sandbox.webhooksIdle();
    const local = (i: number) => `${w.day}T${localTimeOf(new Date(s[i]!.start_at), SYDNEY)}`;
    const closure = await w.call('POST', '/staff/closures', manager, {
      locationId: w.sydney,
      from: local(20),
      to: local(22),
      reason: 'Santa is unwell',
      remedy: 'refund',
      confirm: 'Kringle Sydney, Pitt Street',
    });
    expect(closure.statusCode, closure.body).toBe(202);
    const held = await sydneyNow();
    expect(held).toMatchObject({ sold: 0, held: 2, free: ahead - 4, closed: 2, failedPaymentsLast5Min: 1 });
    expect(held.paymentsLast5Min).toBe(0);

    // The second card goes through: sold, no longer held; the decline still counts within 5 minutes.
    expect((await payWithCard(sandbox, secret, CARDS.success)).status).toBe('succeeded');
    await sandbox.webhooksIdle();
    const paid = await sydneyNow();
    expect(paid).toMatchObject({
      sold: 1,
      held: 1,
      free: ahead - 4,
      closed: 2,
      paymentsLast5Min: 1,
      failedPaymentsLast5Min: 1,
    });

    // Five minutes on, the payments have left the window; the hold has lapsed (it is free again).
    w.clock.set(new Date(w.clock.now().getTime() + 16 * 60_000));
    const later = await sydneyNow();
    expect(later).toMatchObject({ sold: 1, held: 0, closed: 2, paymentsLast5Min: 0, failedPaymentsLast5Min: 0 });
    expect(later.sold + later.held + later.free + later.closed).toBeLessThan(sessions);
  });

  it("counts the line's waiting and admitted families", async () => {
    const now = w.clock.now().toISOString();
    const ticket = async (status: string, admittedUntil: string | null) => {
      const who = await createPerson(w.t.db, false);
      await w.t.db.execute(sql`insert into queue_tickets (location_id, user_id, status, position, admitted_until)
        values (${w.brisbane}::uuid, ${who.id}::uuid, ${status}, 1, ${admittedUntil}::timestamptz)`);
    };
    await ticket('waiting', null);
    await ticket('waiting', null);
    await ticket('admitted', new Date(Date.parse(now) + 60_000).toISOString());
    await ticket('admitted', new Date(Date.parse(now) - 60_000).toISOString());
    await ticket('closed', null);
    await sleep(AFTER_A_READ_MS);
    const all = await live();
    const brisbane = all.locations.find((l: LiveLocation) => l.id === w.brisbane)!;
    expect(brisbane.line).toEqual({ waiting: 2, admitted: 1 });
    expect(all.locations.find((l) => l.id === w.sydney)!.line).toEqual({ waiting: 0, admitted: 0 });
    expect(all.locations.length).toBeGreaterThan(1);
    expect(all.errorsLast5Min).toBe(0);
    expect(Date.parse(all.at)).toBe(w.clock.now().getTime());
  });

  it(
    'shows a manager scoped to Brisbane only Brisbane, and refuses other locations, bad input and other ' + 'roles',
    async () => {
      const scoped = await createPerson(
        w.t.db,
        true,
        { firstName: 'Bri', lastName: 'Manager' },
        { role: 'manager', mfaEnrolled: true, locationIds: [w.brisbane] },
      );
      expect((await live('', scoped)).locations.map((l) => l.id)).toEqual([w.brisbane]);
      expectContractError(await w.call('GET', `/staff/live?locationId=${w.sydney}`, scoped), 403, 'LOCATION_FORBIDDEN');
      expectContractError(await w.call('GET', '/staff/live?locationId=nope', manager), 400, 'VALIDATION_FAILED');
      expectContractError(await w.call('GET', '/staff/live?other=1', manager), 400, 'VALIDATION_FAILED');
      expectContractError(
        await w.call('GET', '/staff/live?locationId=00000000-0000-4000-8000-000000000000', manager),
        404,
        'NOT_FOUND',
      );
      const support = await createPerson(w.t.db, true, undefined, { role: 'support', mfaEnrolled: true });
      for (const who of [w.elf, support]) {
        for (const url of ['/staff/live', '/staff/live/stream'])
          expectContractError(await w.call('GET', url, who), 403, 'ROLE_FORBIDDEN');
      }
      expect((await w.call('GET', '/staff/live', w.family)).statusCode).toBe(403);
      expect((await w.call('GET', '/staff/live', null)).statusCode).toBe(401);
      const noFactor = await createPerson(w.t.db, true, undefined, { role: 'manager' });
      expectContractError(await w.call('GET', '/staff/live', noFactor), 403, 'MFA_REQUIRED');
    },
  );
});
