import type { Booking } from '@kringle/contracts/bookings';
import type { ContinuePaymentResult } from '@kringle/contracts/cart';
import { api } from './api';

/**
 * One booking as it is now (GET /bookings/{id}). Shared like the policy: the payment pages wait on
 * it, and a reschedule reads it (another tab may have moved the booking); no feature imports another.
 */
const oneBookingApi = api.injectEndpoints({
  endpoints: (build) => ({
    getBooking: build.query<Booking, string>({
      query: (id) => `/bookings/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'GET_BOOKINGS', id }],
    }),
    /**
     * A fresh client secret for an unpaid booking while its hold lives (My Bookings' and the wizard's Continue
     * payment).
     */
    resumePayment: build.mutation<ContinuePaymentResult, string>({
      query: (id) => ({ url: `/bookings/${id}/continue-payment`, method: 'POST' }),
    }),
  }),
});

export const { useGetBookingQuery } = oneBookingApi;
export const bookingReads = oneBookingApi;
