import { useNavigate } from 'react-router';
import type { Booking } from '@kringle/contracts/bookings';
import type { Location } from '@kringle/contracts/catalogue';
import { bookingApi } from '../features/booking-wizard/api';
import {
  goToStep,
  resetBooking,
  setLocation,
  startReschedule,
  toggleSlotType,
} from '../features/booking-wizard/state/booking-slice';
import { continuePayment } from '../features/booking-wizard/checkout/continue-payment';
import { stopTimer } from '../features/booking-wizard/state/timer-slice';
import { stepIndex } from '../features/booking-wizard/state/wizard-steps';
import { BookingsPage } from '../features/bookings/bookings-page';
import { track } from '../lib/analytics';
import type { ApiError } from '../lib/api-error';
import { HeldSessionNotice } from './held-session-notice';
import { useAppDispatch, useAppSelector } from './hooks';
import { toastError } from '../lib/deferred-toast';

const errorText = (error: unknown, fallback: string) => (error as ApiError | undefined)?.data?.error ?? fallback;

/**
 * My Bookings joined to the booking wizard (features do not import each other): Book now,
 * reschedule (spec §4) and continue payment all hand over to /create-booking.
 */
export function BookingsRoute() {
  const dispatch = useAppDispatch();
  const navigate = useNavigate();
  const wizard = useAppSelector((s) => s.booking);

  /** The wizard keeps whole locations (with their session types); a booking names only its id. */
  const locationOf = async (booking: Booking): Promise<Location | null> => {
    const result = await dispatch(bookingApi.endpoints.getLocations.initiate(undefined, { subscribe: false }));
    const location = result.data?.find((l) => l.id === booking.location.id) ?? null;
    if (!location)
      void toastError(errorText(result.error, 'We could not open this booking’s location. Please try again.'));
    return location;
  };

  const onBookNow = () => {
    track('book_now', { from: 'bookings' });
    // A half-finished reschedule is not a new booking: start clean. Otherwise resume where the family left off.
    if (wizard.rescheduleData) {
      dispatch(resetBooking());
      dispatch(stopTimer());
    }
    navigate('/create-booking');
  };

  const onReschedule = async (booking: Booking) => {
    const location = await locationOf(booking);
    if (!location) return;
    // Spec §4: reset, keep the location (the booking's own: a reschedule stays there), store the data.
    dispatch(setLocation(location));
    dispatch(
      startReschedule({
        bookingId: booking.id,
        reference: booking.reference,
        locationId: booking.location.id,
        slotId: booking.slot.id,
        startAt: booking.slot.startAt,
        slotTypeId: booking.slotType.id,
        slotTypeName: booking.slotType.name,
        amountCents: booking.amountCents,
        rescheduleCount: booking.rescheduleCount,
      }),
    );
    dispatch(stopTimer());
    // The booking's own type chosen, the wizard opens on its Session step at the booking's own day
    // (issue 37 item 4); Back goes to Type to move to another type. A type no longer offered: Type.
    const ownType = location.slotTypes.find((t) => t.id === booking.slotType.id);
    if (ownType) dispatch(toggleSlotType(ownType));
    dispatch(goToStep(stepIndex(ownType ? 'sessionTime' : 'bookingType')));
    navigate('/create-booking');
  };

  const onContinuePayment = async (booking: Booking) => {
    if (await dispatch(continuePayment(booking)).unwrap()) navigate('/create-booking');
  };

  return (
    <BookingsPage
      onBookNow={onBookNow}
      onReschedule={onReschedule}
      onContinuePayment={onContinuePayment}
      heldSession={<HeldSessionNotice onResume={onBookNow} />}
    />
  );
}
