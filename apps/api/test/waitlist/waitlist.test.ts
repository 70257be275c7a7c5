import { and, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { packages, slots } from '../../src/db/schema/catalogue';
import { mailOutbox } from '../../src/db/schema/mail';
import { reservations, waitlistEntries } from '../../src/db/schema/reservations';
import { ManualClock } from '../../src/lib/clock';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { waitlistPass } from '../../src/modules/waitlist/waitlist.hand-off';
import { CARDS, listenForWebhooks, payWithCard, startSandbox } from '../helpers/payments';
import { createCustomer, reauthenticate, type TestCustomer } from '../helpers/customers';
import { oneSessionDays, type OneSessionDay } from '../helpers/waitlist-days';
import { createTestApp, type TestApp } from '../helpers/test-app';
import type { StripeSandbox } from '@kringle/stripe-sandbox/stripe-sandbox';

const MINUTE = 60_000;

describe('waitlist (API.md "Waitlist")', () => {
  let t: TestApp;
  let sandbox: StripeSandbox;
  let clock: ManualClock;
  let days: OneSessionDay[];
  let next = 0;
  let pass: () => Promise<void>;
  let packageId: string;
  let packagePrice: number;

  beforeAll(async () => {
    const s = await startSandbox();
    sandbox = s.sandbox;
    clock = new ManualClock(new Date());
    t = await createTestApp({ ...s.env, WAITLIST_LIMIT: '2', MAX_UPCOMING_BOOKINGS: '1' }, clock);
    await listenForWebhooks(t.app, sandbox);
    await loadSeason(t.db, demoSeason(clock.now(), { days: 42 }), clock.now());
    days = await oneSessionDays(t.db, 14);
    pass = waitlistPass(t.app);
    const [pkg] = await t.db
      .select()
      .from(packages)
      .where(sql`${packages.slotTypeSlugs} is null`);
    packageId = pkg!.id;
    packagePrice = pkg!.priceCents;
  });
  afterAll(async () => {
    await t?.close();
    await sandbox?.stop();
  });

  const family = () => createCustomer(t.db, t.app.idTokens);
  // A fresh ID token each time: tests move the clock past their 15 minutes.
  const call = async (method: 'GET' | 'POST' | 'DELETE', url: string, who: TestCustomer, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: (await reauthenticate(t.app.idTokens, who)).headers,
      ...(payload ? { payload } : {}),
    });
  const join = (who: TestCustomer, day: OneSessionDay) =>
    call('POST', '/waitlist', who, { locationId: day.locationId, slotTypeId: day.slotTypeId, date: day.date });
  const entries = async (who: TestCustomer) =>
    (await call('GET', '/waitlist', who)).json().items as {
      id: string;
      status: string;
      position: number;
      offer: { reservationId: string; slotId: string; expiresAt: string } | null;
    }[];
  const hold = (who: TestCustomer, slotId: string) => call('POST', '/bookings/reservation', who, { slotId });
  /** A day sold out by family A's hold on its last session. */
  const soldOut = async () => {
    const day = days[next++]!;
    const a = await family();
    const held = await hold(a, day.slotId);
    expect(held.statusCode).toBe(201);
    return { day, a, aHold: held.json().id as string };
  };
  const slotHolder = async (slotId: string) =>
    (await t.db.select().from(slots).where(eq(slots.id, slotId)))[0]!.holdReservationId;
  const mailsTo = (email: string) =>
    t.db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.createdAt));

  it('joins a sold-out day, numbers the line, and shows each family only its own entries', async () => {
    const { day } = await soldOut();
    const [b, c] = [await family(), await family()];
    const first = await join(b, day);
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({
      locationId: day.locationId,
      slotTypeId: day.slotTypeId,
      date: day.date,
      status: 'waiting',
      position: 1,
      offer: null,
    });
    expect((await join(c, day)).json()).toMatchObject({ position: 2 });
    expect(await entries(b)).toHaveLength(1);
    expect((await entries(c)).map((e) => e.position)).toEqual([2]);
    // Another family's entry: 404, and nothing changes.
    expect((await call('DELETE', `/waitlist/${first.json().id}`, c)).json()).toMatchObject({ code: 'NOT_FOUND' });
    expect(await entries(b)).toHaveLength(1);
    expect((await call('DELETE', `/waitlist/${first.json().id}`, b)).statusCode).toBe(204);
    expect((await call('DELETE', `/waitlist/${first.json().id}`, b)).statusCode).toBe(404);
    expect((await entries(c)).map((e) => e.position)).toEqual([1]);
  });

  it(
    'refuses a day with a session on sale, a second entry for a day, more than WAITLIST_LIMIT days, and bad ' + 'input',
    async () => {
      const b = await family();
      const open = days[next++]!;
      expect((await join(b, open)).json()).toMatchObject({ code: 'WAITLIST_NOT_NEEDED' });
      const [d1, d2, d3] = [await soldOut(), await soldOut(), await soldOut()];
      expect((await join(b, d1.day)).statusCode).toBe(201);
      expect((await join(b, d1.day)).json()).toMatchObject({ code: 'ALREADY_WAITLISTED' });
      expect((await join(b, d2.day)).statusCode).toBe(201);
      expect((await join(b, d3.day)).json()).toMatchObject({
        code: 'WAITLIST_LIMIT',
        error: expect.stringContaining('2 days'),
      });
      const bad = await call('POST', '/waitlist', b, {
        locationId: d3.day.locationId,
        slotTypeId: d3.day.slotTypeId,
        date: '2026-13-01',
      });
      expect(bad.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
      expect((await call('POST', '/waitlist', b, { ...d3.day, slotId: undefined, extra: 1 })).json().code).toBe(
        'VALIDATION_FAILED',
      );
      const c = await family();
      expect(
        (
          await call('POST', '/waitlist', c, {
            locationId: d3.day.slotTypeId,
            slotTypeId: d3.day.slotTypeId,
            date: d3.day.date,
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (
          await call('POST', '/waitlist', c, {
            locationId: d3.day.locationId,
            slotTypeId: d3.day.slotTypeId,
            date: '2020-01-01',
          })
        ).json().code,
      ).toBe('VALIDATION_FAILED');
      expect((await call('DELETE', '/waitlist/not-a-uuid', c)).statusCode).toBe(400);
    },
  );

  it('hands a freed session to the first family only, as a hold only that family can use, and e-mails it', async () => {
    const { day, a, aHold } = await soldOut();
    const [b, c, d] = [await family(), await family(), await family()];
    await join(b, day);
    await join(c, day);
    expect((await call('POST', `/bookings/reservation/${aHold}/cancel`, a)).statusCode).toBe(200);
    // Freed, and someone waits: no public hold can take it, not even before the hand-off.
    expect((await hold(d, day.slotId)).json()).toMatchObject({ code: 'SLOT_UNAVAILABLE' });
    await pass();
    const [offered] = await entries(b);
    expect(offered).toMatchObject({ status: 'offered', position: 1, offer: { slotId: day.slotId } });
    const offerId = offered!.offer!.reservationId;
    expect(new Date(offered!.offer!.expiresAt).getTime()).toBe(clock.now().getTime() + 30 * MINUTE);
    expect(await slotHolder(day.slotId)).toBe(offerId);
    expect((await entries(c))[0]).toMatchObject({ status: 'waiting', position: 2 });
    // The offer is an ordinary reservation of B's; for anyone else it does not exist.
    expect((await call('GET', `/bookings/reservation/${offerId}`, b)).json()).toMatchObject({
      id: offerId,
      status: 'active',
      slotId: day.slotId,
    });
    for (const url of [`/bookings/reservation/${offerId}`]) expect((await call('GET', url, c)).statusCode).toBe(404);
    expect((await call('POST', `/bookings/reservation/${offerId}/refresh`, c)).statusCode).toBe(404);
    expect((await call('POST', `/bookings/reservation/${offerId}/cancel`, c)).statusCode).toBe(404);
    expect(
      (
        await call('POST', '/cart', c, {
          reservationId: offerId,
          amount: packagePrice,
          packages: [{ id: packageId, quantity: 1 }],
          addOns: [],
        })
      ).statusCode,
    ).toBe(404);
    expect((await hold(d, day.slotId)).json().code).toBe('SLOT_UNAVAILABLE');
    const [mail] = await mailsTo(b.email);
    expect(mail!.subject).toMatch(/^A session came free: .+\. It is yours until \d{1,2}:\d\d (am|pm) A[CEW][DS]T$/);
    expect(mail!.text).toContain(`/create-booking?offer=${offerId}`);
    expect(mail!.text).toMatch(/leave the waitlist for that day/);
    // B holding another session keeps the offer (it is not "the one active hold").
    expect((await hold(b, days[days.length - 1]!.slotId)).statusCode).toBe(201);
    expect((await call('GET', `/bookings/reservation/${offerId}`, b)).json().status).toBe('active');
    await pass();
    expect(await mailsTo(b.email)).toHaveLength(1);
  });

  it(
    'an offer that lapses goes to the next family, the lapsing family leaves the line, and with nobody left the ' +
      'session is on sale',
    async () => {
      const { day, a } = await soldOut();
      const [b, c, d] = [await family(), await family(), await family()];
      await join(b, day);
      await join(c, day);
      // A's hold lapses without any write: still nobody but B may have it.
      clock.advance(10 * MINUTE);
      expect((await hold(d, day.slotId)).json().code).toBe('SLOT_UNAVAILABLE');
      await pass();
      const bOffer = (await entries(b))[0]!.offer!.reservationId;
      clock.advance(30 * MINUTE);
      expect(await entries(b)).toEqual([]);
      await pass();
      expect(await entries(b)).toEqual([]);
      expect((await t.db.select().from(waitlistEntries).where(eq(waitlistEntries.userId, b.id)))[0]!.status).toBe(
        'lapsed',
      );
      expect((await t.db.select().from(reservations).where(eq(reservations.id, bOffer)))[0]!.status).toBe('expired');
      const [cEntry] = await entries(c);
      expect(cEntry).toMatchObject({ status: 'offered', position: 1 });
      // C declines (cancels the hold): nobody is left, so the session is an ordinary free one.
      expect((await call('POST', `/bookings/reservation/${cEntry!.offer!.reservationId}/cancel`, c)).statusCode).toBe(
        200,
      );
      await pass();
      expect(await entries(c)).toEqual([]);
      expect((await hold(d, day.slotId)).statusCode).toBe(201);
      expect(a).toBeDefined();
    },
  );

  it('leaving with an open offer passes it on at once', async () => {
    const { day, a, aHold } = await soldOut();
    const [b, c] = [await family(), await family()];
    const bEntry = (await join(b, day)).json().id as string;
    await join(c, day);
    await call('POST', `/bookings/reservation/${aHold}/cancel`, a);
    await pass();
    expect((await entries(b))[0]!.status).toBe('offered');
    expect((await call('DELETE', `/waitlist/${bEntry}`, b)).statusCode).toBe(204);
    const [cEntry] = await entries(c);
    expect(cEntry).toMatchObject({ status: 'offered', offer: { slotId: day.slotId } });
    expect(await slotHolder(day.slotId)).toBe(cEntry!.offer!.reservationId);
  });

  it(
    'an offer checks out and pays like any hold; paid, the entry ends; an expired offer is refused as any expired ' +
      'hold',
    async () => {
      const { day, a, aHold } = await soldOut();
      const [b, c] = [await family(), await family()];
      await join(b, day);
      await join(c, day);
      await call('POST', `/bookings/reservation/${aHold}/cancel`, a);
      await pass();
      const offerId = (await entries(b))[0]!.offer!.reservationId;
      const basket = {
        reservationId: offerId,
        amount: packagePrice,
        packages: [{ id: packageId, quantity: 1 }],
        addOns: [],
      };
      const cart = await call('POST', '/cart', b, basket);
      expect(cart.statusCode).toBe(201);
      const order = await call('POST', `/bookings/reservation/${offerId}/checkoutOrder`, b, { cartId: cart.json().id });
      expect(order.statusCode).toBe(201);
      expect((await payWithCard(sandbox, order.json().client_secret, CARDS.success)).status).toBe('succeeded');
      await sandbox.webhooksIdle();
      expect((await t.db.select().from(slots).where(eq(slots.id, day.slotId)))[0]!.bookingId).toBe(
        order.json().bookingId,
      );
      expect(await entries(b)).toEqual([]);
      await pass();
      expect(
        (
          await t.db
            .select()
            .from(waitlistEntries)
            .where(and(eq(waitlistEntries.userId, b.id)))
        )[0]!.status,
      ).toBe('booked');
      // B has a booking that day now: joining it again is refused.
      expect((await join(b, day)).json().code).toBe('ALREADY_BOOKED');
      expect((await entries(c))[0]).toMatchObject({ status: 'waiting', position: 1 });
      // At the per-account limit (1 here): no other day's line either, since an offer could not be checked out.
      // Another date: the next sold-out day can be the same date at another centre, which answers ALREADY_BOOKED first.
      let other = await soldOut();
      while (other.day.date === day.date) other = await soldOut();
      expect((await join(b, other.day)).json()).toMatchObject({ code: 'BOOKING_LIMIT' });

      // The next day: B's offer lapses just as B checks out.
      const second = await soldOut();
      const e = await family();
      await join(e, second.day);
      await call('POST', `/bookings/reservation/${second.aHold}/cancel`, second.a);
      await pass();
      const eOffer = (await entries(e))[0]!.offer!.reservationId;
      const eCart = await call('POST', '/cart', e, { ...basket, reservationId: eOffer });
      clock.advance(30 * MINUTE);
      expect(
        (await call('POST', `/bookings/reservation/${eOffer}/checkoutOrder`, e, { cartId: eCart.json().id })).json()
          .code,
      ).toBe('HOLD_EXPIRED');
    },
  );
});
