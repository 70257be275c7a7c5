import { useNavigate } from 'react-router';
import type { Booking } from '@kringle/contracts/bookings';
import type { Location } from '@kringle/contracts/catalogue';
import { bookingApi } from '../features/booking-wizard/api';
import { goToStep, resetBooking, setCheckoutData, setLocation, setReservationData, startReschedule, toggleSlotType, upsertItem } from '../features/booking-wizard/booking-slice';
import { setEndDate, stopTimer } from '../features/booking-wizard/timer-slice';
import { stepIndex } from '../features/booking-wizard/wizard-steps';
import { bookingsApi } from '../features/bookings/api';
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
    if (!location) void toastError(errorText(result.error, 'We could not open this booking’s location. Please try again.'));
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
    const resumed = await dispatch(bookingsApi.endpoints.resumePayment.initiate(booking.id));
    if (resumed.error) {
      const code = (resumed.error as ApiError).data?.code;
      void toastError(code === 'HOLD_EXPIRED' ? 'The hold on this session has ended, so it has gone back on sale. Please book a new session.' : errorText(resumed.error, 'We could not reopen this payment. Please try again.'));
      // Either way the card was stale (the hold lapsed, or the payment landed meanwhile): show it as it is now.
      if (code === 'HOLD_EXPIRED' || code === 'ALREADY_PAID') dispatch(bookingsApi.util.invalidateTags(['GET_BOOKINGS']));
      return;
    }
    const { client_secret, expiresAt } = resumed.data;
    const sameCheckout = wizard.checkoutData?.bookingId === booking.id && wizard.reservationData;
    if (sameCheckout && wizard.checkoutData && wizard.reservationData) {
      dispatch(setCheckoutData({ ...wizard.checkoutData, client_secret }));
      dispatch(setReservationData({ ...wizard.reservationData, expiresAt }));
    } else {
      // Paying from another device or after the wizard was cleared: rebuild what the Payment step reads.
      const location = await locationOf(booking);
      if (!location) return;
      const slotType = location.slotTypes.find((t) => t.id === booking.slotType.id);
      dispatch(resetBooking());
      dispatch(setLocation(location));
      if (slotType) dispatch(toggleSlotType(slotType));
      for (const item of booking.items) dispatch(upsertItem({ _id: item.id, type: item.type, totalQuantity: item.quantity, totalPrice: item.totalCents }));
      // The hold still runs while paying: naming it lets the countdown offer more time.
      dispatch(setReservationData({ holdId: resumed.data.reservationId, slotId: booking.slot.id, expiresAt }));
      dispatch(setCheckoutData({ bookingId: booking.id, client_secret, message: `Finish paying to confirm booking ${booking.reference}.` }));
    }
    dispatch(setEndDate(expiresAt));
    dispatch(goToStep(stepIndex('payment')));
    navigate('/create-booking');
  };

  return <BookingsPage onBookNow={onBookNow} onReschedule={onReschedule} onContinuePayment={onContinuePayment} heldSession={<HeldSessionNotice onResume={onBookNow} />} />;
}
