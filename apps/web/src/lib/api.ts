import { createApi } from '@reduxjs/toolkit/query/react';
import { baseQuery } from './base-query';
import { CACHE_KEEP_SECONDS } from './env';

/** Spec §7 cache tags. */
const API_TAGS = ['GET_LOCATIONS', 'GET_BOOKINGS', 'GET_PACKAGES', 'GET_ADD_ONS', 'GET_RESERVATION'] as const;

/**
 * The one RTK Query API slice. Features add their endpoints with `api.injectEndpoints` in
 * their own api.ts, so the cache, tags and base query stay shared.
 */
export const api = createApi({
  reducerPath: 'api',
  baseQuery,
  tagTypes: API_TAGS,
  keepUnusedDataFor: CACHE_KEEP_SECONDS,
  refetchOnReconnect: true,
  endpoints: () => ({}),
});
