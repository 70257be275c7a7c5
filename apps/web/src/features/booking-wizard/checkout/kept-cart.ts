import type { Store } from '@reduxjs/toolkit';
import type { CartItem } from '../state/booking-slice';

/** Where the package choice of the hold in progress is kept apart from the store that sign-out purges. */
export const KEPT_CART_KEY = 'kringle:hold-cart';

interface KeptCart {
  holdId: string;
  packages: Record<string, CartItem>;
}

const read = (): KeptCart | null => {
  try {
    const raw = window.localStorage.getItem(KEPT_CART_KEY);
    return raw ? (JSON.parse(raw) as KeptCart) : null;
  } catch {
    return null;
  }
};

/**
 * The packages chosen for a hold, if the note is that hold's (issue 53 item 4: signing out and in
 * during a hold lost them). Only the server's own live hold for the family signed in now is
 * resumed, and its id is a random UUID, so another account on the device never meets the note.
 * Taken once: a later resume of the same hold starts from what the wizard then holds.
 */
export function takeKeptCart(holdId: string): Record<string, CartItem> | null {
  const kept = read();
  if (!kept || kept.holdId !== holdId) return null;
  try {
    window.localStorage.removeItem(KEPT_CART_KEY);
  } catch {
    // ignore: storage is a convenience
  }
  return kept.packages;
}

type WithBooking = {
  booking: { reservationData: { holdId: string } | null; packages: Record<string, CartItem>; rescheduleData: unknown };
};

/**
 * Writes the note as the family chooses: package ids, kinds, quantities and prices, nothing about
 * the family. Sign-out purges the persisted store (spec §4) and resets the wizard; the note is not
 * wiped then (the wizard's reset looks like no hold at all), only replaced by the next hold's.
 */
export function keepHoldCart(store: Pick<Store<WithBooking>, 'getState' | 'subscribe'>) {
  let last: unknown = null;
  return store.subscribe(() => {
    const { reservationData, packages, rescheduleData } = store.getState().booking;
    if (!reservationData || rescheduleData || packages === last) return;
    last = packages;
    try {
      window.localStorage.setItem(
        KEPT_CART_KEY,
        JSON.stringify({ holdId: reservationData.holdId, packages } satisfies KeptCart),
      );
    } catch {
      // ignore: storage is a convenience
    }
  });
}
