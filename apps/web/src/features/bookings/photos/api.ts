import type { Gallery, PhotoCheckout } from '@kringle/contracts/photos';
import { api } from '../../../lib/api';

/**
 * A booking's photos (API.md "Photos"). Loaded only when the family opens the gallery: the
 * booking list says only how many there are (`photoCount`), and a call per card would slow My Bookings.
 */
export const photosApi = api.injectEndpoints({
  endpoints: (build) => ({
    bookingPhotos: build.query<Gallery, string>({
      query: (bookingId) => `/bookings/${bookingId}/photos`,
      // The preview links are signed for 15 minutes: a gallery opened again later asks afresh.
      keepUnusedDataFor: 60,
    }),
    unlockPhotos: build.mutation<Gallery, { bookingId: string; photoIds: string[] }>({
      query: ({ bookingId, photoIds }) => ({
        url: `/bookings/${bookingId}/photos/unlock`,
        method: 'POST',
        body: { photoIds },
      }),
      // The answer is the gallery as GET gives it: it replaces the cached one without a second call.
      async onQueryStarted({ bookingId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(photosApi.util.upsertQueryData('bookingPhotos', bookingId, data));
      },
    }),
    /** More photos by card: the order and its PaymentIntent (the same photos again: the same order). */
    checkoutPhotos: build.mutation<PhotoCheckout, { bookingId: string; photoIds: string[] }>({
      query: ({ bookingId, photoIds }) => ({
        url: `/bookings/${bookingId}/photos/checkout`,
        method: 'POST',
        body: { photoIds },
      }),
    }),
  }),
});

export const { useBookingPhotosQuery, useUnlockPhotosMutation, useCheckoutPhotosMutation } = photosApi;
