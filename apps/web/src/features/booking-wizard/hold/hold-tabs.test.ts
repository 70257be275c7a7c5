import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  bookingReducer,
  initialBookingState,
  resetBooking,
  setReservationData,
  startReschedule,
  upsertItem,
  type BookingState,
} from '../state/booking-slice';
import { followHoldAcrossTabs } from './hold-tabs';
import { setEndDate, timerReducer } from '../state/timer-slice';
import { stepIndex } from '../state/wizard-steps';

vi.mock('../../../lib/deferred-toast', () => ({ toastSuccess: vi.fn(async () => {}) }));

const PERSISTED_KEY = 'persist:kringle';

const inMinutes = (m: number) => new Date(Date.now() + m * 60_000).toISOString();
const location = {
  id: 'loc-1',
  name: 'Kringle Sydney, Pitt Street',
  timezone: 'Australia/Sydney',
} as unknown as BookingState['location'];
const held = (holdId: string, slotId: string, expiresAt: string): BookingState => ({
  ...initialBookingState,
  location,
  slotType: [{ id: 'type-1', name: 'Santa photos' }] as unknown as BookingState['slotType'],
  reservationData: { holdId, slotId, expiresAt },
  currentStep: stepIndex('package'),
});

function tab(booking: BookingState) {
  const store = configureStore({
    reducer: combineReducers({ booking: bookingReducer, timer: timerReducer }),
    preloadedState: { booking },
  });
  if (booking.reservationData) store.dispatch(setEndDate(booking.reservationData.expiresAt));
  const stop = followHoldAcrossTabs(store, PERSISTED_KEY);
  return { store, stop };
}

/** What the other tab's redux-persist writes, heard here as a `storage` event. */
const otherTabWrites = (booking: BookingState, key = PERSISTED_KEY) =>
  window.dispatchEvent(
    new StorageEvent('storage', {
      key,
      newValue: JSON.stringify({ auth: '{}', booking: JSON.stringify(booking), _persist: '{}' }),
    }),
  );

describe('the hold follows across tabs', () => {
  let stops: Array<() => void> = [];
  afterEach(() => {
    stops.forEach((stop) => stop());
    stops = [];
  });
  const open = (booking: BookingState) => {
    const t = tab(booking);
    stops.push(t.stop);
    return t.store;
  };

  it("takes the other tab's wizard whole when it holds another session (the server let this one go)", async () => {
    const { toastSuccess } = await import('../../../lib/deferred-toast');
    const store = open({ ...held('hold-A', 'slot-1', inMinutes(9)), currentStep: stepIndex('overview') });
    const theirs = held('hold-B', 'slot-2', inMinutes(10));
    otherTabWrites(theirs);
    expect(store.getState().booking).toEqual(theirs);
    expect(toastSuccess).toHaveBeenCalledWith('This tab now shows the session you chose in another tab.');
  });

  it('follows more time given to the same hold, and nothing else', () => {
    const mine = held('hold-A', 'slot-1', inMinutes(2));
    const store = open({ ...mine, currentStep: stepIndex('overview') });
    const later = inMinutes(10);
    otherTabWrites({
      ...mine,
      reservationData: { ...mine.reservationData!, expiresAt: later },
      packages: { p1: { _id: 'p1', type: 'package', totalQuantity: 1, totalPrice: 4995, remove: false } },
    });
    expect(store.getState().booking.reservationData?.expiresAt).toBe(later);
    expect(store.getState().timer.remaining).toBeGreaterThan(9 * 60);
    expect(store.getState().booking.currentStep).toBe(stepIndex('overview'));
    expect(store.getState().booking.packages).toEqual({});
  });

  it('lets the hold go here when the other tab let it go, and stops the countdown', () => {
    const store = open(held('hold-A', 'slot-1', inMinutes(9)));
    otherTabWrites({
      ...held('hold-A', 'slot-1', inMinutes(9)),
      reservationData: null,
      droppedHoldId: 'hold-A',
      currentStep: stepIndex('sessionTime'),
    });
    expect(store.getState().booking.reservationData).toBeNull();
    expect(store.getState().booking.currentStep).toBe(stepIndex('sessionTime'));
    expect(store.getState().timer.isRunning).toBe(false);
  });

  it('leaves a tab alone for changes that are not about the hold, other keys and unreadable values', () => {
    const store = open(held('hold-A', 'slot-1', inMinutes(9)));
    store.dispatch(upsertItem({ _id: 'p1', type: 'package', totalPrice: 4995 }));
    const before = store.getState().booking;
    otherTabWrites({ ...held('hold-A', 'slot-1', before.reservationData!.expiresAt), currentStep: stepIndex('terms') });
    otherTabWrites(held('hold-B', 'slot-2', inMinutes(10)), 'kringle-auth-event');
    window.dispatchEvent(new StorageEvent('storage', { key: PERSISTED_KEY, newValue: '{not json' }));
    window.dispatchEvent(new StorageEvent('storage', { key: PERSISTED_KEY, newValue: null }));
    expect(store.getState().booking).toBe(before);
  });

  it('ignores a write from before its own last hold change, which would bring back a hold the server let go', () => {
    const store = open(held('hold-A', 'slot-1', inMinutes(9)));
    const before = Date.now();
    // This tab took another session: the server let hold-A go.
    store.dispatch(setReservationData({ holdId: 'hold-B', slotId: 'slot-2', expiresAt: inMinutes(10) }));
    expect(store.getState().booking.holdChangedAt).toBeGreaterThanOrEqual(before);
    // The other tab's write of its older wizard (still on hold-A) lands afterwards.
    otherTabWrites({ ...held('hold-A', 'slot-1', inMinutes(9)), holdChangedAt: before - 1_000 });
    expect(store.getState().booking.reservationData?.holdId).toBe('hold-B');
    // A later change there is followed as before.
    const theirs = { ...held('hold-C', 'slot-3', inMinutes(10)), holdChangedAt: Date.now() + 1 };
    otherTabWrites(theirs);
    expect(store.getState().booking).toEqual(theirs);
  });

  it('never shortens its countdown for an older write of the same hold', () => {
    const mine = held('hold-A', 'slot-1', inMinutes(10));
    const store = open(mine);
    otherTabWrites({ ...mine, reservationData: { ...mine.reservationData!, expiresAt: inMinutes(3) } });
    expect(store.getState().booking.reservationData?.expiresAt).toBe(mine.reservationData!.expiresAt);
  });

  it("a reschedule started in another tab and this tab's booking leave each other alone (no hold is let go)", () => {
    const booking = open({ ...held('hold-A', 'slot-1', inMinutes(9)), holdChangedAt: Date.now() - 1_000 });
    const reschedule = open({ ...held('hold-A', 'slot-1', inMinutes(9)), holdChangedAt: Date.now() - 1_000 });
    // Both tabs hear every write here, as they would each other's.
    reschedule.dispatch(startReschedule({ bookingId: 'b-1' }));
    otherTabWrites(reschedule.getState().booking);
    expect(booking.getState().booking.reservationData?.holdId).toBe('hold-A');
    expect(reschedule.getState().booking.rescheduleData).toEqual({ bookingId: 'b-1' });
    booking.dispatch(upsertItem({ _id: 'p1', type: 'package', totalPrice: 4995 }));
    otherTabWrites(booking.getState().booking);
    expect(reschedule.getState().booking.rescheduleData).toEqual({ bookingId: 'b-1' });
    expect(booking.getState().booking.packages).toHaveProperty('p1');
  });

  it('a tab paying keeps its checkout when another tab drops the same hold (it found it booked)', () => {
    const paying = {
      ...held('hold-A', 'slot-1', inMinutes(9)),
      holdChangedAt: Date.now() - 1_000,
      checkoutData: { bookingId: 'b1', client_secret: 'cs', message: '' },
    };
    const store = open(paying);
    otherTabWrites({ ...initialBookingState, holdChangedAt: Date.now(), droppedHoldId: 'hold-A' });
    expect(store.getState().booking.reservationData?.holdId).toBe('hold-A');
    expect(store.getState().booking.checkoutData?.bookingId).toBe('b1');
  });

  it('a booking paid or started over in another tab (the wizard reset) clears the hold here', () => {
    const store = open({ ...held('hold-A', 'slot-1', inMinutes(9)), holdChangedAt: Date.now() - 1_000 });
    const other = configureStore({ reducer: combineReducers({ booking: bookingReducer }) });
    other.dispatch(setReservationData(store.getState().booking.reservationData));
    other.dispatch(resetBooking());
    otherTabWrites(other.getState().booking);
    expect(store.getState().booking.reservationData).toBeNull();
    expect(store.getState().timer.isRunning).toBe(false);
  });
});
