import type { BuyVoucherBody, Voucher, VoucherPurchase } from '@kringle/contracts/vouchers';
import { api } from '../../lib/api';

/**
 * Gift vouchers (API.md "Gift vouchers, promo codes, credit, donations", decision 0112). Their list shares
 * GET_BOOKINGS with the account credit: a checkout that spends a voucher refreshes it, as it does the bookings.
 * A code's lookup and claim show a 429 themselves, beside the code (no toast repeating it).
 */
export const giftApi = api.injectEndpoints({
  endpoints: (build) => ({
    giftVouchers: build.query<Voucher[], void>({
      query: () => '/vouchers',
      transformResponse: (body: { items: Voucher[] }) => body.items,
      providesTags: ['GET_BOOKINGS'],
    }),
    buyVoucher: build.mutation<VoucherPurchase, BuyVoucherBody>({
      query: (body) => ({ url: '/vouchers', method: 'POST', body }),
    }),
    /** A typed code's voucher. A wrong code counts towards the limit, so the same code is not asked twice. */
    lookUpVoucher: build.query<Voucher, string>({
      query: (code) => `/vouchers/${encodeURIComponent(code)}`,
      extraOptions: { showsRateLimit: true },
      keepUnusedDataFor: 0,
    }),
    claimVoucher: build.mutation<Voucher, string>({
      query: (code) => ({ url: `/vouchers/${encodeURIComponent(code)}/claim`, method: 'POST' }),
      extraOptions: { showsRateLimit: true },
      invalidatesTags: ['GET_BOOKINGS'],
    }),
  }),
});

export const { useGiftVouchersQuery, useBuyVoucherMutation, useLazyLookUpVoucherQuery, useClaimVoucherMutation } =
  giftApi;
