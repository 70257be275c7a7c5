import type { AvailableDates, AvailableSlots, Location, Slot } from '@kringle/contracts/catalogue';
import type { CreateReservationBody, Reservation } from '@kringle/contracts/reservations';
import type { SlotFilter } from '@kringle/contracts/statuses';
import { api } from '../../lib/api';
import type { Booking } from '@kringle/contracts/bookings';
import { countsTowardsLimit } from '../../components/ui/booking-limit-notice';

export interface AvailableDatesArgs {
  locationId: string;
  slotTypeId: string;
  from?: string;
  to?: string;
}

export interface AvailableSlotsArgs {
  locationId: string;
  slotTypeId: string;
  date: string;
  filter?: SlotFilter;
}

/** The wizard's calls: catalogue and availability (read), reservations (the timed hold). */
export const bookingApi = api.injectEndpoints({
  endpoints: (build) => ({
    getLocations: build.query<Location[], void>({
      query: () => '/common/locations',
      transformResponse: (body: { items: Location[] }) => body.items,
      providesTags: ['GET_LOCATIONS'],
    }),
    getAvailableDates: build.query<AvailableDates, AvailableDatesArgs>({
      query: ({ locationId, ...params }) => ({
        url: `/booking-slot/${locationId}/available-dates`,
        params: { ...params },
      }),
    }),
    getAvailableSlots: build.query<AvailableSlots, AvailableSlotsArgs>({
      query: ({ locationId, filter = 'all', ...params }) => ({
        url: `/booking-slot/${locationId}/available-slots`,
        params: { ...params, filter },
      }),
    }),
    getSlot: build.query<Slot, { locationId: string; slotId: string }>({
      query: ({ locationId, slotId }) => `/booking-slot/${locationId}/slots/${slotId}`,
    }),
    getReservation: build.query<Reservation, string>({
      query: (id) => `/bookings/reservation/${id}`,
      providesTags: (_r, _e, id) => [{ type: 'GET_RESERVATION', id }],
    }),
    /** How many upcoming bookings count towards the per-account limit (the first page is larger than any limit). */
    getUpcomingBookingCount: build.query<number, void>({
      query: () => '/bookings/upcoming-bookings',
      transformResponse: (body: { items: Booking[] }) => body.items.filter((b) => countsTowardsLimit(b)).length,
      providesTags: ['GET_BOOKINGS'],
    }),
    /** The family's live holds and unpaid checkouts, from any device (issue 37 item 1). */
    getLiveReservations: build.query<Reservation[], void>({
      query: () => '/bookings/reservation',
      transformResponse: (body: { items: Reservation[] }) => body.items,
      providesTags: [{ type: 'GET_RESERVATION', id: 'LIVE' }],
    }),
    createReservation: build.mutation<Reservation, CreateReservationBody>({
      query: (body) => ({ url: '/bookings/reservation', method: 'POST', body }),
      // Too many sessions of the day held from this address (decision 0069): the Session step says so beside the times.
      extraOptions: { showsRateLimit: true },
      invalidatesTags: [{ type: 'GET_RESERVATION', id: 'LIVE' }],
      // Seed the hold's cache entry so the countdown knows the refreshes left without a call.
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(bookingApi.util.upsertQueryData('getReservation', data.id, data));
      },
    }),
    refreshReservation: build.mutation<Reservation, string>({
      query: (id) => ({ url: `/bookings/reservation/${id}/refresh`, method: 'POST' }),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(bookingApi.util.upsertQueryData('getReservation', id, data));
      },
    }),
    /** Moves a booking onto the session held for it (reschedule: no package or payment steps). */
    rescheduleBooking: build.mutation<Booking, { bookingId: string; reservationId: string }>({
      query: ({ bookingId, reservationId }) => ({
        url: `/bookings/${bookingId}/reschedule`,
        method: 'POST',
        body: { reservationId },
      }),
      invalidatesTags: ['GET_BOOKINGS'],
    }),
    /**
     * Lets an unpaid checkout go: its booking (payment pending or failed) is cancelled, nothing charged (issue 37 item
     * 2).
     */
    cancelUnpaidBooking: build.mutation<unknown, string>({
      query: (bookingId) => ({ url: `/bookings/${bookingId}/cancel`, method: 'POST', body: {} }),
      invalidatesTags: ['GET_BOOKINGS', { type: 'GET_RESERVATION', id: 'LIVE' }],
    }),
    cancelReservation: build.mutation<Reservation, string>({
      query: (id) => ({ url: `/bookings/reservation/${id}/cancel`, method: 'POST' }),
      invalidatesTags: (_r, _e, id) => [
        { type: 'GET_RESERVATION', id },
        { type: 'GET_RESERVATION', id: 'LIVE' },
      ],
    }),
  }),
});

export const {
  useGetLocationsQuery,
  useGetAvailableDatesQuery,
  useGetAvailableSlotsQuery,
  useGetSlotQuery,
  useGetReservationQuery,
  useGetLiveReservationsQuery,
  useGetUpcomingBookingCountQuery,
} = bookingApi;
