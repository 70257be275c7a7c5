import type { BusinessBuyer } from '@kringle/contracts/abn';
import type { Cart, CheckoutResult, CreateCartBody } from '@kringle/contracts/cart';
import type { AddOn, Package } from '@kringle/contracts/catalogue';
import type { Charity } from '@kringle/contracts/donations';
import type { Credit } from '@kringle/contracts/credit';
import type { Voucher } from '@kringle/contracts/vouchers';
import { api } from '../../../lib/api';

/**
 * The wizard's cart and checkout calls (API.md "Reservations, cart, checkout"). The price lists
 * have their own endpoint names here: features do not import each other's api.ts.
 */
export const checkoutApi = api.injectEndpoints({
  endpoints: (build) => ({
    wizardPackages: build.query<Package[], { locationId: string; slotTypeId: string }>({
      query: (params) => ({ url: '/product/packages', params: { ...params } }),
      transformResponse: (body: { items: Package[] }) => body.items,
      providesTags: ['GET_PACKAGES'],
    }),
    wizardAddOns: build.query<AddOn[], { locationId: string }>({
      query: (params) => ({ url: '/product/addons', params: { ...params } }),
      transformResponse: (body: { items: AddOn[] }) => body.items,
      providesTags: ['GET_ADD_ONS'],
    }),
    /** The operator's charity (null name: no donation offered); it changes with a restart, so kept all visit. */
    charity: build.query<Charity, void>({
      query: () => '/common/charity',
      keepUnusedDataFor: 3600,
    }),
    /** The family's account credit (decision 0111); spent by a checkout, so fetched again after one. */
    wizardCredit: build.query<Credit, void>({
      query: () => '/user/credit',
      providesTags: ['GET_BOOKINGS'],
    }),
    /** The family's gift vouchers (decision 0112): those in its account are offered at Overview in one tap. */
    wizardVouchers: build.query<Voucher[], void>({
      query: () => '/vouchers',
      transformResponse: (body: { items: Voucher[] }) => body.items,
      providesTags: ['GET_BOOKINGS'],
    }),
    createCart: build.mutation<Cart, CreateCartBody>({
      query: (body) => ({ url: '/cart', method: 'POST', body }),
      // Too many wrong voucher codes (10 an hour): Overview says so beside the field, or above Continue.
      extraOptions: { showsRateLimit: true },
    }),
    checkoutOrder: build.mutation<CheckoutResult, { holdId: string; cartId: string; business?: BusinessBuyer }>({
      query: ({ holdId, ...body }) => ({
        url: `/bookings/reservation/${holdId}/checkoutOrder`,
        method: 'POST',
        body,
      }),
      invalidatesTags: (_r, _e, { holdId }) => [{ type: 'GET_RESERVATION', id: holdId }, 'GET_BOOKINGS'],
    }),
  }),
});

export const {
  useWizardPackagesQuery,
  useWizardAddOnsQuery,
  useCharityQuery,
  useWizardCreditQuery,
  useWizardVouchersQuery,
} = checkoutApi;
