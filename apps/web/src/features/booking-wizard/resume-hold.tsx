import { formatSessionTime } from '@kringle/contracts/dates';
import { toReservationData, type Reservation } from '@kringle/contracts/reservations';
import { Link } from 'react-router';
import { Button, buttonClasses } from '../../components/ui/button';
import { useGetLiveReservationsQuery, useGetLocationsQuery, useGetSlotQuery } from './api';
import { useWizardDispatch, useWizardSelector } from './booking-hooks';
import { goToStep, setLocation, setReservationData, toggleSlotType } from './booking-slice';
import { setEndDate } from './timer-slice';
import { stepIndex } from './wizard-steps';

/**
 * The family's live hold or unpaid checkout, whichever device took it (issue 37 item 1): a new
 * booking's hold (not a reschedule's, not a waitlist offer's own link) the server still keeps.
 */
export function useLiveHold(skip = false) {
  const live = useGetLiveReservationsQuery(undefined, { skip });
  const hold = live.data?.find((r) => r.status === 'checked_out' || (r.status === 'active' && r.bookingId === null)) ?? null;
  const locations = useGetLocationsQuery(undefined, { skip: !hold });
  const slot = useGetSlotQuery(hold ? { locationId: hold.locationId, slotId: hold.slotId } : { locationId: '', slotId: '' }, { skip: !hold });
  const location = locations.data?.find((l) => l.id === hold?.locationId) ?? null;
  const slotType = location?.slotTypes.find((t) => t.id === slot.data?.slotTypeId) ?? null;
  if (!hold || !location || !slot.data || !slotType) return null;
  return { hold, location, slotType, when: formatSessionTime(slot.data.startAt, location.timezone) };
}

export type LiveHold = NonNullable<ReturnType<typeof useLiveHold>>;

/** The wizard as it stood when the hold was taken: place, type, the hold (its countdown), at Package. */
export function resumeLiveHold(dispatch: ReturnType<typeof useWizardDispatch>, l: LiveHold) {
  dispatch(setLocation(l.location));
  dispatch(toggleSlotType(l.slotType));
  dispatch(setReservationData(toReservationData(l.hold)));
  dispatch(setEndDate(l.hold.expiresAt));
  // The session was the last choice made before the hold: the family picks up at its packages.
  dispatch(goToStep(stepIndex('package')));
}

function expiresIn(hold: Reservation): string {
  const minutes = Math.max(1, Math.ceil((Date.parse(hold.expiresAt) - Date.now()) / 60_000));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
}

/** On the wizard's first step when this device holds nothing: offer the family's own hold back. */
export function ResumeHoldOffer() {
  const hasHold = useWizardSelector((s) => s.booking.reservationData !== null || s.booking.rescheduleData !== null);
  const live = useLiveHold(hasHold);
  const dispatch = useWizardDispatch();
  if (hasHold || !live) return null;
  return (
    <section aria-labelledby="resume-hold-title" className="rounded-2xl border border-pine-200 bg-pine-50 p-4 text-ink-900">
      <h2 id="resume-hold-title" className="text-lg font-semibold">
        {live.hold.status === 'checked_out' ? 'Your booking is waiting for payment' : 'You are holding a session'}
      </h2>
      <p className="mt-1">
        {live.when} at {live.location.name}, held for you for {expiresIn(live.hold)} more.
      </p>
      <div className="mt-3">
        {live.hold.status === 'checked_out' ? (
          <Link to="/bookings" className={buttonClasses('confirm')}>
            Continue payment
          </Link>
        ) : (
          <Button variant="confirm" onClick={() => resumeLiveHold(dispatch, live)}>
            Resume this booking
          </Button>
        )}
      </div>
    </section>
  );
}
