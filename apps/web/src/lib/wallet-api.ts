import type { GoogleWalletResponse } from '@kringle/contracts/wallet';
import { api } from './api';

/**
 * The booking's "Save to Google Wallet" link (GET /bookings/{id}/wallet/google). Shared like the
 * one booking: My Bookings' card and the confirmation page both offer it. Asked for on the tap,
 * not per card drawn; the Apple pass is a file, fetched by lib/download-file.ts.
 */
const walletApi = api.injectEndpoints({
  endpoints: (build) => ({
    googleWalletLink: build.query<GoogleWalletResponse, string>({
      query: (bookingId) => `/bookings/${bookingId}/wallet/google`,
      // A moved or cancelled booking signs a new link.
      providesTags: (_r, _e, bookingId) => [{ type: 'GET_BOOKINGS', id: bookingId }],
    }),
  }),
});

export const { useLazyGoogleWalletLinkQuery } = walletApi;
