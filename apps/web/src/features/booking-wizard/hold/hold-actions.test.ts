import { describe, expect, it, vi } from 'vitest';
import {
  goToStep,
  setCheckoutData,
  setReservationData,
  startReschedule,
  toggleSlotType,
  upsertItem,
} from '../state/booking-slice';
import { keepHoldAndStay, letGoAndGoBack, popToStep, releaseHold, takeHold, tickHold, tryAgain } from './hold-actions';
import { location, recordEachTest, reservation, setup, slot, taken, type } from './hold-actions-fixture';
import { releaseAsked } from './release-ask';
import { setEndDate } from '../state/timer-slice';
import { stepIndex } from '../state/wizard-steps';

// Taking, letting go and taking again after /expired; moving a booking is in hold-actions-rescheduling.test.ts.
describe('hold actions', () => {
  const sent = recordEachTest();

  it(
    'taking a hold stores reservationData, starts the timer, moves to Package and records ' + 'schedule_session',
    async () => {
      const { store, fetchFn } = setup({ 'POST /bookings/reservation': reservation });
      await store.dispatch(takeHold(slot)).unwrap();
      const state = store.getState();
      expect(state.booking.reservationData).toEqual({ holdId: 'h2', slotId: 's1', expiresAt: reservation.expiresAt });
      expect(state.timer).toEqual({ endDate: reservation.expiresAt, remaining: 600, isRunning: true });
      expect(state.booking.currentStep).toBe(stepIndex('package'));
      expect(JSON.parse(String(fetchFn.mock.calls[0]![1]!.body))).toEqual({ slotId: 's1' });
      expect(sent).toEqual([
        {
          event: 'schedule_session',
          params: expect.objectContaining({
            location_name: location.name,
            slot_type: 'Santa photos',
            session_date: '2026-12-06',
          }),
        },
      ]);
    },
  );

  it('a 409 rejects with SLOT_UNAVAILABLE and changes nothing (the old hold stays)', async () => {
    const { store } = setup({ 'POST /bookings/reservation': taken });
    const old = { holdId: 'h1', slotId: 's0', expiresAt: '2026-12-06T00:05:00.000Z' };
    store.dispatch(setReservationData(old));
    const result = await store.dispatch(takeHold(slot));
    expect(takeHold.rejected.match(result) && result.payload?.data.code).toBe('SLOT_UNAVAILABLE');
    expect(store.getState().booking.reservationData).toEqual(old);
    expect(store.getState().booking.currentStep).toBe(stepIndex('sessionTime'));
    expect(sent).toEqual([]);
  });

  it(
    'changing session: on HOLD_LIMIT the session held here is let go, then the new one is held (decision ' + '0059)',
    async () => {
      const limit = { error: 'You already have a session on hold or waiting for payment.', code: 'HOLD_LIMIT' };
      let asked = 0;
      const { store, calls } = setup({
        'POST /bookings/reservation': () =>
          asked++ === 0
            ? new Response(JSON.stringify(limit), { status: 409 })
            : new Response(JSON.stringify(reservation), { status: 201 }),
        'POST /bookings/reservation/h1/cancel': { ...reservation, id: 'h1', slotId: 's0', status: 'cancelled' },
      });
      store.dispatch(setReservationData({ holdId: 'h1', slotId: 's0', expiresAt: '2026-12-06T00:05:00.000Z' }));
      await store.dispatch(takeHold(slot)).unwrap();
      expect(calls).toEqual([
        'POST /bookings/reservation',
        'POST /bookings/reservation/h1/cancel',
        'POST /bookings/reservation',
      ]);
      expect(store.getState().booking.reservationData).toEqual({
        holdId: 'h2',
        slotId: 's1',
        expiresAt: reservation.expiresAt,
      });
    },
  );

  it('a cool-down (HOLD_COOLDOWN) keeps the session held here', async () => {
    const cooldown = () =>
      new Response(JSON.stringify({ error: 'Please wait 6 minutes before holding another.', code: 'HOLD_COOLDOWN' }), {
        status: 409,
        headers: { 'Retry-After': '360' },
      });
    const { store, calls } = setup({ 'POST /bookings/reservation': cooldown });
    const old = { holdId: 'h1', slotId: 's0', expiresAt: '2026-12-06T00:05:00.000Z' };
    store.dispatch(setReservationData(old));
    const result = await store.dispatch(takeHold(slot));
    expect(takeHold.rejected.match(result) && result.payload?.data.code).toBe('HOLD_COOLDOWN');
    expect(calls).toEqual(['POST /bookings/reservation']);
    expect(store.getState().booking.reservationData).toEqual(old);
  });

  it('when rescheduling, the hold names the booking', async () => {
    const { store, fetchFn } = setup({ 'POST /bookings/reservation': { ...reservation, bookingId: 'b1' } });
    store.dispatch(startReschedule({ bookingId: 'b1' }));
    store.dispatch(toggleSlotType(type));
    await store.dispatch(takeHold(slot)).unwrap();
    expect(JSON.parse(String(fetchFn.mock.calls[0]![1]!.body))).toEqual({ slotId: 's1', bookingId: 'b1' });
  });

  it('releasing forgets the hold, stops the timer and cancels it on the server', async () => {
    const { store, calls } = setup({
      'POST /bookings/reservation': reservation,
      'POST /bookings/reservation/h2/cancel': { ...reservation, status: 'cancelled' },
    });
    await store.dispatch(takeHold(slot)).unwrap();
    await store.dispatch(releaseHold());
    expect(store.getState().booking.reservationData).toBeNull();
    expect(store.getState().timer.isRunning).toBe(false);
    expect(calls).toContain('POST /bookings/reservation/h2/cancel');
  });

  it(
    'letting go of a checked-out hold (a declined payment) cancels its unpaid booking, as the server keeps the ' +
      'session for it (issue 37 item 2)',
    async () => {
      const { store, calls } = setup({
        'POST /bookings/b9/cancel': { booking: { id: 'b9', status: 'cancelled' }, refund: null },
      });
      store.dispatch(setReservationData({ holdId: 'h9', slotId: 's1', expiresAt: '2099-01-01T00:00:00.000Z' }));
      store.dispatch(setCheckoutData({ bookingId: 'b9', client_secret: 'pi_9_secret_x', message: '' }));
      await store.dispatch(releaseHold());
      expect(calls).toContain('POST /bookings/b9/cancel');
      expect(calls).not.toContain('POST /bookings/reservation/h9/cancel');
      expect(store.getState().booking.reservationData).toBeNull();
      expect(store.getState().booking.checkoutData).toBeNull();
    },
  );

  it(
    "the browser's Back keeps the hold back to the Session step and asks before letting it go before it (issue 37 " +
      'item 2)',
    async () => {
      const { store, calls } = setup({
        'POST /bookings/reservation': reservation,
        'POST /bookings/reservation/h2/cancel': { ...reservation, status: 'cancelled' },
      });
      await store.dispatch(takeHold(slot)).unwrap();
      await store.dispatch(popToStep(stepIndex('sessionTime')));
      expect(store.getState().booking.currentStep).toBe(stepIndex('sessionTime'));
      expect(store.getState().booking.reservationData?.holdId).toBe('h2');

      // Asked, not moved: nothing is let go until the family answers.
      await store.dispatch(popToStep(stepIndex('bookingType')));
      expect(releaseAsked()).toBe(stepIndex('bookingType'));
      expect(store.getState().booking.currentStep).toBe(stepIndex('sessionTime'));
      expect(store.getState().booking.reservationData?.holdId).toBe('h2');
      expect(calls).not.toContain('POST /bookings/reservation/h2/cancel');
      keepHoldAndStay(stepIndex('sessionTime'));
      expect(releaseAsked()).toBeNull();
      expect(store.getState().booking.reservationData?.holdId).toBe('h2');

      await store.dispatch(popToStep(stepIndex('bookingType')));
      await store.dispatch(letGoAndGoBack());
      expect(releaseAsked()).toBeNull();
      expect(store.getState().booking.currentStep).toBe(stepIndex('bookingType'));
      expect(store.getState().booking.reservationData).toBeNull();
      await vi.waitFor(() => expect(calls).toContain('POST /bookings/reservation/h2/cancel'));
    },
  );
  it(
    'remembers the lapsed session, and /expired can hold it again keeping type and packages but not the stale ' +
      'checkout',
    async () => {
      const { store } = setup({ 'POST /bookings/reservation': reservation });
      store.dispatch(upsertItem({ _id: 'p1', type: 'package', totalQuantity: 1, totalPrice: 3995 }));
      store.dispatch(setReservationData({ holdId: 'h1', slotId: 's1', expiresAt: '2026-12-05T23:59:00.000Z' }));
      store.dispatch(setCheckoutData({ bookingId: 'b-old', client_secret: 'pi_old_secret_x', message: '' }));
      store.dispatch(setEndDate('2026-12-05T23:59:00.000Z'));
      expect(await store.dispatch(tickHold()).unwrap()).toBe(true);
      expect(store.getState().booking.lapsedSlotId).toBe('s1');

      expect(await store.dispatch(tryAgain(slot)).unwrap()).toBe(true);
      const booking = store.getState().booking;
      expect(booking.reservationData).toEqual({ holdId: 'h2', slotId: 's1', expiresAt: reservation.expiresAt });
      expect(booking.lapsedSlotId).toBeNull();
      expect(booking.checkoutData).toBeNull();
      expect(booking.location?.id).toBe('loc-1');
      expect(booking.slotType[0]?.id).toBe('t1');
      expect(Object.keys(booking.packages)).toEqual(['p1']);
      expect(booking.currentStep).toBe(stepIndex('package'));
    },
  );

  it('/expired falls back to the Session step when the same session cannot be held again', async () => {
    const { store } = setup({ 'POST /bookings/reservation': taken });
    store.dispatch(goToStep(stepIndex('package')));
    expect(await store.dispatch(tryAgain(slot)).unwrap()).toBe(false);
    expect(store.getState().booking.currentStep).toBe(stepIndex('sessionTime'));
    expect(store.getState().booking.slotType[0]?.id).toBe('t1');
  });
});
