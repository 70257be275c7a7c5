import type { Order } from '@kringle/contracts/orders';
import { api } from '../../lib/api';

/**
 * The result pages' calls: the paid booking's orders, and paying again while its hold lives (the booking itself:
 * lib/booking-api.ts).
 */
const paymentsApi = api.injectEndpoints({
  endpoints: (build) => ({
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

export const { usePaidBookingOrdersQuery, useContinuePaymentMutation } = paymentsApi;
