import { formatSessionTime } from '@kringle/contracts/dates';
import { toReservationData, type Reservation } from '@kringle/contracts/reservations';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { toastSuccess } from '../../../lib/deferred-toast';
import { useGetLiveReservationsQuery, useGetLocationsQuery, useGetSlotQuery } from '../api';
import { useWizardDispatch, useWizardSelector } from '../state/booking-hooks';
import { continuePaymentOf } from '../checkout/continue-payment';
import { goToStep, setLocation, setReservationData, toggleSlotType, upsertItem } from '../state/booking-slice';
import { takeKeptCart } from '../checkout/kept-cart';
import { setEndDate } from '../state/timer-slice';
import { stepIndex } from '../state/wizard-steps';

/**
 * The family's live hold or unpaid checkout, whichever device took it (issue 37 item 1): a new
 * booking's hold (not a reschedule's, not a waitlist offer's own link) the server still keeps.
 */
export function useLiveHold(skip = false, fresh = false) {
  // `fresh`: asked again on mount, never an answer cached from before a hold was let go here.
  const live = useGetLiveReservationsQuery(undefined, { skip, refetchOnMountOrArgChange: fresh });
  const hold =
    live.data?.find((r) => r.status === 'checked_out' || (r.status === 'active' && r.bookingId === null)) ?? null;
  const locations = useGetLocationsQuery(undefined, { skip: !hold });
  const slot = useGetSlotQuery(
    hold ? { locationId: hold.locationId, slotId: hold.slotId } : { locationId: '', slotId: '' },
    { skip: !hold },
  );
  const location = locations.data?.find((l) => l.id === hold?.locationId) ?? null;
  const slotType = location?.slotTypes.find((t) => t.id === slot.data?.slotTypeId) ?? null;
  if (!hold || !location || !slot.data || !slotType) return null;
  return { hold, location, slotType, when: formatSessionTime(slot.data.startAt, location.timezone) };
}

export type LiveHold = NonNullable<ReturnType<typeof useLiveHold>>;

/**
 * The wizard as it stood when the hold was taken: place, type, the hold (its countdown), at
 * Package, with the packages chosen for this hold before a sign-out (kept-cart.ts).
 */
export function resumeLiveHold(dispatch: ReturnType<typeof useWizardDispatch>, l: LiveHold) {
  dispatch(setLocation(l.location));
  // The family may have chosen the same type again meanwhile: choosing it twice would clear it.
  dispatch((d, getState) => {
    if (getState().booking.slotType[0]?.id !== l.slotType.id) d(toggleSlotType(l.slotType));
  });
  for (const line of Object.values(takeKeptCart(l.hold.id) ?? {})) dispatch(upsertItem(line));
  dispatch(setReservationData(toReservationData(l.hold)));
  dispatch(setEndDate(l.hold.expiresAt));
  // The session was the last choice made before the hold: the family picks up at its packages.
  dispatch(goToStep(stepIndex('package')));
}

function expiresIn(hold: Reservation): string {
  const minutes = Math.max(1, Math.ceil((Date.parse(hold.expiresAt) - Date.now()) / 60_000));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** Picks up the family's live hold or unpaid checkout in this wizard: at Package, or at Payment. */
async function resume(dispatch: ReturnType<typeof useWizardDispatch>, live: LiveHold) {
  if (live.hold.status === 'checked_out' && live.hold.bookingId)
    return dispatch(continuePaymentOf(live.hold.bookingId)).unwrap();
  resumeLiveHold(dispatch, live);
  return true;
}

/**
 * On the wizard's steps before a session is held, when this tab holds nothing: the family's own
 * hold or unpaid checkout, offered back (another device, or after signing in again). A hold this
 * tab let go of whose release the server refused (the tab that lost to another tab's checkout)
 * is resumed at once on opening, as a single tab resumes its own after a reload (issue 37 item
 * 8): the server's story wins.
 */
export function ResumeHoldOffer({ keptAtOpen }: { keptAtOpen: string | null }) {
  const hasHold = useWizardSelector((s) => s.booking.reservationData !== null || s.booking.rescheduleData !== null);
  // As the wizard stood when the page opened (`keptAtOpen`, kept by the page): only a hold whose
  // release the server refused (`keptHoldId`) is taken back, never one let go of, run out or
  // started again from, nor one another tab is letting go of as this one follows it.
  const [dropped, setDropped] = useState(keptAtOpen);
  const resuming = useRef(false);
  const live = useLiveHold(hasHold, true);
  const dispatch = useWizardDispatch();
  const ownHold = !hasHold && live !== null && dropped === live.hold.id;
  useEffect(() => {
    if (!ownHold || !live || resuming.current) return;
    resuming.current = true;
    void resume(dispatch, live).then((ok) => {
      // Once: refused (the hold lapsed meanwhile), the offer stays for the family to decide.
      setDropped(null);
      if (ok) void toastSuccess(live.hold.status === 'checked_out' ? RESUMED_CHECKOUT_MESSAGE : RESUMED_HOLD_MESSAGE);
    });
  }, [ownHold, live, dispatch]);
  if (hasHold || !live || ownHold) return null;
  return (
    <section
      aria-labelledby="resume-hold-title"
      className="rounded-2xl border border-pine-600/30 bg-pine-50 p-4 text-ink-900"
    >
      <h2 id="resume-hold-title" className="text-lg font-semibold">
        {live.hold.status === 'checked_out' ? 'Your booking is waiting for payment' : 'You are holding a session'}
      </h2>
      <p className="mt-1">
        {live.when} at {live.location.name}, held for you for {expiresIn(live.hold)} more.
      </p>
      <div className="mt-3">
        <Button variant="confirm" onClick={() => void resume(dispatch, live)}>
          {live.hold.status === 'checked_out' ? 'Continue payment' : 'Resume this booking'}
        </Button>
      </div>
    </section>
  );
}

export const RESUMED_CHECKOUT_MESSAGE = 'Your booking is waiting for payment: pay here to confirm it.';
export const RESUMED_HOLD_MESSAGE = 'Your session is still held for you: carry on here.';
