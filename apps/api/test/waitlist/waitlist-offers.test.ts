import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { slots } from '../../src/db/schema/catalogue';
import { reservations, waitlistEntries } from '../../src/db/schema/reservations';
import { CARDS, payWithCard } from '../helpers/payments';
import { waitlistDays } from './waitlist-fixture';

const MINUTE = 60_000;

/** A freed session offered down the line: the hold only the first family can use, lapsing, leaving, paying. */
describe('waitlist (API.md "Waitlist")', () => {
  const { w, pass, family, call, join, entries, hold, soldOut, slotHolder, mailsTo } = waitlistDays();

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
    expect(new Date(offered!.offer!.expiresAt).getTime()).toBe(w.clock.now().getTime() + 30 * MINUTE);
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
          amount: w.packagePrice,
          packages: [{ id: w.packageId, quantity: 1 }],
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
    expect((await hold(b, w.days[w.days.length - 1]!.slotId)).statusCode).toBe(201);
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
      w.clock.advance(10 * MINUTE);
      expect((await hold(d, day.slotId)).json().code).toBe('SLOT_UNAVAILABLE');
      await pass();
      const bOffer = (await entries(b))[0]!.offer!.reservationId;
      w.clock.advance(30 * MINUTE);
      expect(await entries(b)).toEqual([]);
      await pass();
      expect(await entries(b)).toEqual([]);
      expect((await w.t.db.select().from(waitlistEntries).where(eq(waitlistEntries.userId, b.id)))[0]!.status).toBe(
        'lapsed',
      );
      expect((await w.t.db.select().from(reservations).where(eq(reservations.id, bOffer)))[0]!.status).toBe('expired');
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
        amount: w.packagePrice,
        packages: [{ id: w.packageId, quantity: 1 }],
        addOns: [],
      };
      const cart = await call('POST', '/cart', b, basket);
      expect(cart.statusCode).toBe(201);
      const order = await call('POST', `/bookings/reservation/${offerId}/checkoutOrder`, b, { cartId: cart.json().id });
      expect(order.statusCode).toBe(201);
      expect((await payWithCard(w.sandbox, order.json().client_secret, CARDS.success)).status).toBe('succeeded');
      await w.sandbox.webhooksIdle();
      expect((await w.t.db.select().from(slots).where(eq(slots.id, day.slotId)))[0]!.bookingId).toBe(
        order.json().bookingId,
      );
      expect(await entries(b)).toEqual([]);
      await pass();
      expect(
        (
          await w.t.db
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
      w.clock.advance(30 * MINUTE);
      expect(
        (await call('POST', `/bookings/reservation/${eOffer}/checkoutOrder`, e, { cartId: eCart.json().id })).json()
          .code,
      ).toBe('HOLD_EXPIRED');
    },
  );
});
