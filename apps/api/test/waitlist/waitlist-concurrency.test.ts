import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';
import type { Db } from '../../src/db/client';
import { packages } from '../../src/db/schema/catalogue';
import type { IdTokens } from '../../src/modules/accounts/id-tokens';
import { startApiProcesses, type ApiProcesses } from '../helpers/api-processes';
import { createCustomers, type TestCustomer } from '../helpers/customers';
import { startSandbox } from '../helpers/payments';
import { oneSessionDays, type OneSessionDay } from '../helpers/waitlist-days';
import { createProcessesDatabase } from '../helpers/processes-database';

interface Entry {
  id: string;
  status: string;
  position: number;
  offer: { reservationId: string; slotId: string } | null;
}

/**
 * Issue 20, "What must hold": exactly one family per offer and no session both offered and sold,
 * with three real API processes (each with its jobs and its free listener) on one PostgreSQL,
 * whatever the order of events.
 */
describe('waitlist under contention, three API processes', () => {
  let api: ApiProcesses;
  let db: Db;
  let sandbox: StripeSandbox;
  let close: () => Promise<void>;
  let idTokens: IdTokens;
  let singles: OneSessionDay[];
  let pairs: OneSessionDay[];
  let next = 0;

  beforeAll(async () => {
    const conn = await createProcessesDatabase({ season: { days: 42 } });
    ({ db, idTokens, close } = conn);
    singles = await oneSessionDays(db, 6, { slug: 'sensory' });
    pairs = await oneSessionDays(db, 2, { slug: 'pet-night', sessions: 2 });
    const s = await startSandbox();
    sandbox = s.sandbox;
    api = await startApiProcesses(3, { ...conn.env, ...s.env });
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await sandbox?.stop();
    await close?.();
  });

  const call = (i: number, method: string, path: string, who: TestCustomer, body?: object) =>
    fetch(`${api.urls[i % api.urls.length]}/api/v1${path}`, {
      method,
      headers: { ...who.headers, ...(body ? { 'content-type': 'application/json' } : {}) },
      ...(body ? { body: JSON.stringify(body) } : {}),
    }).then(async (res) => ({
      status: res.status,
      body: (res.status === 204 ? {} : await res.json()) as Record<string, unknown> & { code?: string },
    }));
  const families = (n: number) => createCustomers(db, idTokens, n);
  const hold = (i: number, who: TestCustomer, slotId: string) =>
    call(i, 'POST', '/bookings/reservation', who, { slotId });
  const join = async (i: number, who: TestCustomer, day: OneSessionDay) => {
    const res = await call(i, 'POST', '/waitlist', who, {
      locationId: day.locationId,
      slotTypeId: day.slotTypeId,
      date: day.date,
    });
    expect(res.status).toBe(201);
    return res.body as unknown as Entry;
  };
  const entriesOf = async (who: TestCustomer) => ((await call(0, 'GET', '/waitlist', who)).body.items as Entry[]) ?? [];
  const waitFor = async <T>(what: () => Promise<T | undefined | null | false>, ms = 20_000): Promise<T> => {
    const until = Date.now() + ms;
    for (;;) {
      const value = await what();
      if (value) return value;
      if (Date.now() > until) throw new Error('timed out waiting');
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const offerOf = (who: TestCustomer) => waitFor(async () => (await entriesOf(who)).find((e) => e.offer)?.offer);
  /** Every live hold and booking on the session: exactly one thing may own it. */
  const owners = async (slotId: string) =>
    (
      await db.execute(sql`
        select s.hold_reservation_id, s.booking_id, r.user_id as holder,
          (select count(*)::int from reservations x where x.slot_id = s.id and x.status in ('active', 'checked_out')
          and x.expires_at > now()) as live_holds,
          (select count(*)::int from bookings b where b.slot_id = s.id and b.status = 'completed') as sold
        from slots s left join reservations r on r.id = s.hold_reservation_id where s.id = ${slotId}::uuid`)
    ).rows[0]!;

  it('a free racing public hold attempts on every process goes to the waiting family only', async () => {
    const day = singles[next++]!;
    const [a, b] = await families(2);
    const racers = await families(90);
    expect((await hold(0, a!, day.slotId)).status).toBe(201);
    const aHold = (await db.execute(sql`select hold_reservation_id from slots where id = ${day.slotId}::uuid`)).rows[0]!
      .hold_reservation_id as string;
    await join(1, b!, day);
    // Three waves of public attempts: before, during and after the free.
    const wave = (from: number) => Promise.all(racers.slice(from, from + 30).map((r, i) => hold(i, r, day.slotId)));
    const [w1, , w2] = await Promise.all([
      wave(0),
      call(2, 'POST', `/bookings/reservation/${aHold}/cancel`, a!),
      wave(30),
    ]);
    const w3 = await wave(60);
    const results = [...w1, ...w2, ...w3];
    expect(results.filter((r) => r.status === 201)).toEqual([]);
    expect(results.every((r) => r.body.code === 'SLOT_UNAVAILABLE')).toBe(true);
    const offer = await offerOf(b!);
    expect(offer.slotId).toBe(day.slotId);
    expect(await owners(day.slotId)).toMatchObject({
      hold_reservation_id: offer.reservationId,
      holder: b!.id,
      booking_id: null,
      live_holds: 1,
      sold: 0,
    });
  }, 90_000);

  it('two frees at once give two offers to the first two families, one each', async () => {
    const day = pairs[0]!;
    const holders = await families(2);
    const line = await families(3);
    const slotIds = (
      await db.execute(sql`
        select s.id from slots s join locations l on l.id = s.location_id
        where s.location_id = ${day.locationId}::uuid and s.slot_type_id = ${day.slotTypeId}::uuid and not s.blocked
        and s.kind = 'session'
          and (s.start_at at time zone l.timezone)::date = ${day.date}::date order by s.start_at`)
    ).rows.map((r) => r.id as string);
    expect(slotIds).toHaveLength(2);
    const holds = await Promise.all(holders.map((h, i) => hold(i, h, slotIds[i]!)));
    expect(holds.map((h) => h.status)).toEqual([201, 201]);
    for (const [i, who] of line.entries()) await join(i, who, day);
    await Promise.all(
      holds.map((h, i) => call(i + 1, 'POST', `/bookings/reservation/${h.body.id as string}/cancel`, holders[i]!)),
    );
    const offers = await Promise.all([offerOf(line[0]!), offerOf(line[1]!)]);
    expect(new Set(offers.map((o) => o.slotId))).toEqual(new Set(slotIds));
    // A moment later the third family still waits, behind the two offers.
    await new Promise((r) => setTimeout(r, 2500));
    expect(await entriesOf(line[2]!)).toMatchObject([{ status: 'waiting', position: 3, offer: null }]);
    for (const [i, slotId] of slotIds.entries()) {
      expect(await owners(slotId)).toMatchObject({
        hold_reservation_id: offers.find((o) => o.slotId === slotId)!.reservationId,
        live_holds: 1,
        sold: 0,
      });
      expect(i).toBeGreaterThanOrEqual(0);
    }
  }, 90_000);

  it(
    'an offer declined, left and lapsing at once, while every process runs the job, goes to exactly one next ' +
      'family',
    async () => {
      for (let round = 0; round < 3; round++) {
        const day = singles[next++]!;
        const [a, w1, w2, w3] = await families(4);
        const aHold = await hold(round, a!, day.slotId);
        await join(0, w1!, day);
        const w1Entry = (await entriesOf(w1!))[0]!;
        await join(1, w2!, day);
        await join(2, w3!, day);
        await call(0, 'POST', `/bookings/reservation/${aHold.body.id as string}/cancel`, a!);
        const offer = await offerOf(w1!);
        // The offer lapses (its end moved to now) while W1 both cancels the hold and leaves the line.
        await db.execute(sql`update reservations set expires_at = now() where id = ${offer.reservationId}::uuid`);
        await db.execute(
          sql`update slots set hold_expires_at = now() where hold_reservation_id = ${offer.reservationId}::uuid`,
        );
        const [cancel, leave] = await Promise.all([
          call(round + 1, 'POST', `/bookings/reservation/${offer.reservationId}/cancel`, w1!),
          call(round + 2, 'DELETE', `/waitlist/${w1Entry.id}`, w1!),
        ]);
        expect([200, 409]).toContain(cancel.status);
        expect([204, 404]).toContain(leave.status);
        const next2 = await offerOf(w2!);
        expect(next2.slotId).toBe(day.slotId);
        await new Promise((r) => setTimeout(r, 1500));
        expect(await entriesOf(w1!)).toEqual([]);
        expect(await entriesOf(w3!)).toMatchObject([{ status: 'waiting', offer: null }]);
        expect(await owners(day.slotId)).toMatchObject({
          hold_reservation_id: next2.reservationId,
          holder: w2!.id,
          live_holds: 1,
          sold: 0,
        });
      }
    },
    120_000,
  );

  it(
    'an offer lapsing while its family checks out: refused as any expired hold, and the session goes to the next ' +
      'family',
    async () => {
      const day = singles[next++]!;
      const [a, w1, w2] = await families(3);
      const aHold = await hold(0, a!, day.slotId);
      await join(1, w1!, day);
      await join(2, w2!, day);
      await call(0, 'POST', `/bookings/reservation/${aHold.body.id as string}/cancel`, a!);
      const offer = await offerOf(w1!);
      const [pkg] = await db
        .select()
        .from(packages)
        .where(sql`${packages.slotTypeSlugs} is null`);
      const cart = await call(1, 'POST', '/cart', w1!, {
        reservationId: offer.reservationId,
        amount: pkg!.priceCents,
        packages: [{ id: pkg!.id, quantity: 1 }],
        addOns: [],
      });
      expect(cart.status).toBe(201);
      await db.execute(
        sql`update reservations set expires_at = now() + interval '300 milliseconds' where id =
${offer.reservationId}::uuid`,
      );
      await db.execute(
        sql`update slots set hold_expires_at = now() + interval '300 milliseconds' where hold_reservation_id =
${offer.reservationId}::uuid`,
      );
      await new Promise((r) => setTimeout(r, 400));
      const attempts = await Promise.all(
        [0, 1, 2].map((i) =>
          call(i, 'POST', `/bookings/reservation/${offer.reservationId}/checkoutOrder`, w1!, { cartId: cart.body.id }),
        ),
      );
      expect(attempts.map((r) => r.body.code)).toEqual(['HOLD_EXPIRED', 'HOLD_EXPIRED', 'HOLD_EXPIRED']);
      const next2 = await offerOf(w2!);
      expect(next2.slotId).toBe(day.slotId);
      expect(await entriesOf(w1!)).toEqual([]);
      expect(await owners(day.slotId)).toMatchObject({
        hold_reservation_id: next2.reservationId,
        holder: w2!.id,
        live_holds: 1,
        sold: 0,
      });
    },
    90_000,
  );
});
