import type { BookingDetails } from '@kringle/contracts/booking-details';
import type { Booking, BookingList } from '@kringle/contracts/bookings';
import { api } from '../../lib/api';

/** PUT /bookings/{id}/details, and the family's last details to start the form from. */
export const whosComingApi = api.injectEndpoints({
  endpoints: (build) => ({
    saveBookingDetails: build.mutation<Booking, { id: string; details: BookingDetails }>({
      query: ({ id, details }) => ({ url: `/bookings/${id}/details`, method: 'PUT', body: details }),
      invalidatesTags: ['GET_BOOKINGS'],
    }),
    /** Names change rarely: the most recently made booking that has details, upcoming or past. */
    previousDetails: build.query<BookingDetails | null, void>({
      async queryFn(_arg, _api, _extra, baseQuery) {
        const lists = await Promise.all([
          baseQuery('/bookings/upcoming-bookings'),
          baseQuery('/bookings/past-bookings'),
        ]);
        const items = lists.flatMap((r) => (r.data as BookingList | undefined)?.items ?? []);
        const latest = items.filter((b) => b.details).sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0];
        return { data: latest?.details ?? null };
      },
      providesTags: ['GET_BOOKINGS'],
    }),
  }),
});

export const { useSaveBookingDetailsMutation, usePreviousDetailsQuery } = whosComingApi;
