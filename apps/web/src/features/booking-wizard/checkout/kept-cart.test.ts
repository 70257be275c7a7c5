import { afterEach, describe, expect, it } from 'vitest';
import { resetBooking, setReservationData, upsertItem } from '../state/booking-slice';
import { KEPT_CART_KEY, keepHoldCart, takeKeptCart } from './kept-cart';
import { wizardTestStore } from '../state/wizard-test-store';

describe('the package choice kept across a sign-out (issue 53 item 4)', () => {
  afterEach(() => localStorage.clear());

  it(
    'is written for the hold as packages are chosen, survives the reset of a sign-out, and is taken once for that ' +
      'hold only',
    () => {
      const { store } = wizardTestStore();
      const stop = keepHoldCart(store);
      store.dispatch(upsertItem({ _id: 'p1', type: 'package', totalPrice: 3995 }));
      // No hold yet: nothing to keep it for.
      expect(localStorage.getItem(KEPT_CART_KEY)).toBeNull();
      store.dispatch(setReservationData({ holdId: 'h1', slotId: 's1', expiresAt: '2099-01-01T00:00:00.000Z' }));
      store.dispatch(upsertItem({ _id: 'p1', type: 'package', totalPrice: 7990, totalQuantity: 2 }));
      store.dispatch(resetBooking());
      stop();
      expect(takeKeptCart('h2')).toBeNull();
      expect(takeKeptCart('h1')).toEqual({
        p1: { _id: 'p1', type: 'package', totalPrice: 7990, totalQuantity: 2, remove: false },
      });
      expect(takeKeptCart('h1')).toBeNull();
    },
  );
});
