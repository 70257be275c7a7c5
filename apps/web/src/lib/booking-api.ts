import type { Booking } from '@kringle/contracts/bookings';
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
  }),
});

export const { useGetBookingQuery } = oneBookingApi;
