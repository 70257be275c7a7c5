import type { Booking, BookingList, CancelResult } from '@kringle/contracts/bookings';
import type { Credit, RefundTo } from '@kringle/contracts/credit';
import type { Order } from '@kringle/contracts/orders';
import type { Voucher } from '@kringle/contracts/vouchers';
import { api } from '../../lib/api';

export type BookingTab = 'upcoming' | 'past';

/** API.md "order": the receipts hang off it. */
export type BookingOrder = Order;

/**
 * A photo order (decision 0065) is an order of the booking too: its lines are extra photos. Its receipts live in the
 * gallery.
 */
export const isPhotoOrder = (o: Pick<BookingOrder, 'items'>) => o.items.some((i) => i.type === 'photo');

const PATHS: Record<BookingTab, string> = { upcoming: '/bookings/upcoming-bookings', past: '/bookings/past-bookings' };

/** My bookings: both tabs page with the API's keyset cursor; every change refreshes GET_BOOKINGS. */
export const bookingsApi = api.injectEndpoints({
  endpoints: (build) => ({
    bookingList: build.infiniteQuery<BookingList, BookingTab, string | null>({
      infiniteQueryOptions: {
        initialPageParam: null,
        getNextPageParam: (last) => last.nextCursor,
      },
      query: ({ queryArg, pageParam }) => ({ url: PATHS[queryArg], params: { cursor: pageParam } }),
      providesTags: ['GET_BOOKINGS'],
    }),
    /** One booking (the gallery's page, /bookings/:id/photos, opened at its own address). */
    booking: build.query<Booking, string>({
      query: (id) => `/bookings/${id}`,
      providesTags: ['GET_BOOKINGS'],
    }),
    bookingOrders: build.query<BookingOrder[], string>({
      query: (bookingId) => `/orders/${bookingId}/orders`,
      transformResponse: (body: { items: BookingOrder[] }) => body.items,
      providesTags: (_r, _e, bookingId) => [{ type: 'GET_BOOKINGS', id: `orders-${bookingId}` }],
    }),
    cancelBooking: build.mutation<CancelResult, { id: string; reason?: string; refundTo?: RefundTo }>({
      query: ({ id, reason, refundTo }) => ({
        url: `/bookings/${id}/cancel`,
        method: 'POST',
        body: { ...(reason ? { reason } : {}), ...(refundTo ? { refundTo } : {}) },
      }),
      invalidatesTags: ['GET_BOOKINGS'],
    }),
    /** The family's account credit (decision 0111): a cancel may add to it, a checkout spend it. */
    accountCredit: build.query<Credit, void>({
      query: () => '/user/credit',
      providesTags: ['GET_BOOKINGS'],
    }),
    /** Gift vouchers bought by or added to this family (decision 0112): a checkout spends them, a cancel gives back. */
    accountVouchers: build.query<Voucher[], void>({
      query: () => '/vouchers',
      transformResponse: (body: { items: Voucher[] }) => body.items,
      providesTags: ['GET_BOOKINGS'],
    }),
    /** A closure's offer (decision 0055): move onto the held session, or take everything back. */
    answerClosure: build.mutation<Booking, { id: string; answer: 'accept' | 'refund' }>({
      query: ({ id, answer }) => ({ url: `/bookings/${id}/closure/${answer}`, method: 'POST' }),
      invalidatesTags: ['GET_BOOKINGS'],
    }),
  }),
});

export const {
  useAccountCreditQuery,
  useAccountVouchersQuery,
  useAnswerClosureMutation,
  useBookingListInfiniteQuery,
  useBookingOrdersQuery,
  useBookingQuery,
  useCancelBookingMutation,
} = bookingsApi;
