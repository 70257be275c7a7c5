import type { AddOn, Package } from '@kringle/contracts/catalogue';
import { api } from '../../lib/api';

/** The catalogue's price lists: packages and add-ons, prices in cents (AUD, GST included). */
const packagesApi = api.injectEndpoints({
  endpoints: (build) => ({
    listPackages: build.query<Package[], { locationId?: string; slotTypeId?: string } | void>({
      query: (params) => ({ url: '/product/packages', params: { ...(params ?? {}) } }),
      transformResponse: (body: { items: Package[] }) => body.items,
      providesTags: ['GET_PACKAGES'],
    }),
    listAddOns: build.query<AddOn[], { locationId?: string } | void>({
      query: (params) => ({ url: '/product/addons', params: { ...(params ?? {}) } }),
      transformResponse: (body: { items: AddOn[] }) => body.items,
      providesTags: ['GET_ADD_ONS'],
    }),
  }),
});

export const { useListPackagesQuery, useListAddOnsQuery } = packagesApi;
