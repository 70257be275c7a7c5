import type { Booking } from '@kringle/contracts/bookings';
import type { Order } from '@kringle/contracts/orders';
import { api } from '../../lib/api';

/** The result pages' calls: the booking being paid for, and paying again while its hold lives. */
export const paymentsApi = api.injectEndpoints({
  endpoints: (build) => ({
    paidBooking: build.query<Booking, string>({
      query: (id) => `/bookings/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'GET_BOOKINGS', id }],
    }),
    /** The paid booking's orders: the one with a payment gives the receipt. */
    paidBookingOrders: build.query<Order[], string>({
      query: (id) => `/orders/${id}/orders`,
      transformResponse: (body: { items: Order[] }) => body.items,
    }),
    continuePayment: build.mutation<{ client_secret: string; expiresAt: string }, string>({
      query: (id) => ({ url: `/bookings/${id}/continue-payment`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [{ type: 'GET_BOOKINGS', id }],
    }),
  }),
});

export const { usePaidBookingQuery, usePaidBookingOrdersQuery, useContinuePaymentMutation } = paymentsApi;
