import { createAsyncThunk } from '@reduxjs/toolkit';
import type { Booking } from '@kringle/contracts/bookings';
import { api } from '../../../lib/api';
import type { ApiError } from '../../../lib/api-error';
import { bookingReads } from '../../../lib/booking-api';
import { toastError } from '../../../lib/deferred-toast';
import { bookingApi } from '../api';
import type { WizardRootState } from '../state/booking-hooks';
import {
  goToStep,
  resetBooking,
  setCheckoutData,
  setLocation,
  setReservationData,
  toggleSlotType,
  upsertItem,
} from '../state/booking-slice';
import { setEndDate } from '../state/timer-slice';
import { stepIndex } from '../state/wizard-steps';

const errorText = (error: unknown, fallback: string) => (error as ApiError | undefined)?.data?.error ?? fallback;

/**
 * Continue payment of an unpaid booking (a declined card, a tab closed at Payment, another tab's
 * checkout): a fresh client secret, and the wizard at its Payment step with the hold's countdown.
 * Resolves true when the wizard is ready for /create-booking; false after saying why not.
 * From My Bookings (the card's button) and from the wizard itself (issue 37 item 8: a tab that
 * lost to another tab's checkout resumes it as a single tab does).
 */
export const continuePayment = createAsyncThunk<boolean, Booking, { state: WizardRootState }>(
  'booking/continuePayment',
  async (booking, { dispatch, getState }) => {
    const resumed = await dispatch(bookingReads.endpoints.resumePayment.initiate(booking.id));
    if (resumed.error) {
      const code = (resumed.error as ApiError).data?.code;
      void toastError(
        code === 'HOLD_EXPIRED'
          ? 'The hold on this session has ended, so it has gone back on sale. Please book a new session.'
          : errorText(resumed.error, 'We could not reopen this payment. Please try again.'),
      );
      // Either way what was shown was stale (the hold lapsed, or the payment landed meanwhile).
      if (code === 'HOLD_EXPIRED' || code === 'ALREADY_PAID')
        dispatch(api.util.invalidateTags(['GET_BOOKINGS', { type: 'GET_RESERVATION', id: 'LIVE' }]));
      return false;
    }
    const { client_secret, expiresAt } = resumed.data;
    const wizard = getState().booking;
    if (wizard.checkoutData?.bookingId === booking.id && wizard.reservationData) {
      dispatch(setCheckoutData({ ...wizard.checkoutData, client_secret }));
      dispatch(setReservationData({ ...wizard.reservationData, expiresAt }));
    } else {
      // Paying from another device or tab, or after the wizard was cleared: rebuild what the Payment step reads.
      const locations = await dispatch(bookingApi.endpoints.getLocations.initiate(undefined, { subscribe: false }));
      const location = locations.data?.find((l) => l.id === booking.location.id);
      if (!location) {
        void toastError(errorText(locations.error, 'We could not open this booking’s location. Please try again.'));
        return false;
      }
      const slotType = location.slotTypes.find((t) => t.id === booking.slotType.id);
      dispatch(resetBooking());
      dispatch(setLocation(location));
      if (slotType) dispatch(toggleSlotType(slotType));
      for (const item of booking.items)
        dispatch(
          upsertItem({ _id: item.id, type: item.type, totalQuantity: item.quantity, totalPrice: item.totalCents }),
        );
      // The hold still runs while paying: naming it lets the countdown offer more time.
      dispatch(setReservationData({ holdId: resumed.data.reservationId, slotId: booking.slot.id, expiresAt }));
      dispatch(
        setCheckoutData({
          bookingId: booking.id,
          client_secret,
          message: `Finish paying to confirm booking ${booking.reference}.`,
          // The card pays the booking's amount (a promo code's cents already off) less the credit spent (0111).
          amountCents: booking.creditCents ? booking.amountCents - booking.creditCents : booking.amountCents,
          donationCents: booking.donationCents,
          ...(booking.creditCents ? { creditCents: booking.creditCents } : {}),
        }),
      );
    }
    dispatch(setEndDate(expiresAt));
    dispatch(goToStep(stepIndex('payment')));
    return true;
  },
);

/** The same, for a booking known by its id only (the server's unpaid checkout, GET /bookings/reservation). */
export const continuePaymentOf = createAsyncThunk<boolean, string, { state: WizardRootState }>(
  'booking/continuePaymentOf',
  async (bookingId, { dispatch }) => {
    const booking = await dispatch(
      bookingReads.endpoints.getBooking.initiate(bookingId, { subscribe: false, forceRefetch: true }),
    );
    if (!booking.data) {
      void toastError(errorText(booking.error, 'We could not open this booking. Please try again.'));
      return false;
    }
    return dispatch(continuePayment(booking.data)).unwrap();
  },
);
