import { toastSuccess } from '../../../lib/deferred-toast';
import { adoptBooking, setReservationData, type BookingState } from '../state/booking-slice';
import { setEndDate, stopTimer } from '../state/timer-slice';

export const HOLD_MOVED_MESSAGE = 'This tab now shows the session you chose in another tab.';

/** The booking slice in redux-persist's stored form (each slice its own JSON string), or null. */
function bookingIn(stored: string): BookingState | null {
  try {
    const root = JSON.parse(stored) as { booking?: unknown };
    if (typeof root.booking !== 'string') return null;
    const booking = JSON.parse(root.booking) as BookingState | null;
    return booking && typeof booking === 'object' && 'currentStep' in booking ? booking : null;
  } catch {
    return null;
  }
}

type WizardStore = { dispatch: (action: never) => unknown; getState: () => { booking: BookingState } };

/**
 * A family holds one session at a time: holding another releases the first, whichever tab asks.
 * Each tab has its own wizard, so a tab left open kept showing a hold another tab had replaced,
 * and learnt of it only at payment ("Your time ran out" with minutes still on its clock). Every
 * change to the wizard is written to localStorage (redux-persist) and the other tabs hear it as a
 * `storage` event: when the other tab took another hold, or let go of (or booked) this one, this
 * tab takes that tab's wizard whole; when it is the same hold with more time, this tab's countdown
 * follows. Changes that leave the hold alone (packages, steps, a reschedule started) stay each
 * tab's own, and a write older than this tab's last hold change (`holdChangedAt`) is ignored.
 * `persistedKey`: the localStorage key redux-persist writes the store under (app/store.ts).
 */
export function followHoldAcrossTabs(store: WizardStore, persistedKey: string): () => void {
  const dispatch = store.dispatch as (action: unknown) => unknown;
  const onStorage = (event: StorageEvent) => {
    if (event.key !== persistedKey || !event.newValue) return;
    const theirs = bookingIn(event.newValue);
    if (!theirs) return;
    const mine = store.getState().booking;
    // Writes can land out of order (each tab writes a while after its change): one from before
    // this tab's last change to its hold would bring back a hold the server has let go.
    if ((theirs.holdChangedAt ?? 0) < (mine.holdChangedAt ?? 0)) return;
    const ours = mine.reservationData;
    const held = theirs.reservationData ?? null;
    if (ours?.holdId === held?.holdId) {
      if (ours && held && Date.parse(held.expiresAt) > Date.parse(ours.expiresAt)) {
        dispatch(setReservationData(held));
        dispatch(setEndDate(held.expiresAt));
      }
      return;
    }
    // A wizard without a hold (a reschedule started there) leaves this one's hold alone unless it
    // let that very hold go: the server still keeps it. A tab paying keeps its checkout: its hold
    // is a booking now, which another tab that finds it gone (/expired) must not take away.
    if (!held && (theirs.droppedHoldId !== ours?.holdId || mine.checkoutData)) return;
    dispatch(adoptBooking(theirs));
    // A new hold's countdown is started by the countdown bar (it follows the hold's id).
    if (!held) dispatch(stopTimer());
    else void toastSuccess(HOLD_MOVED_MESSAGE);
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}
