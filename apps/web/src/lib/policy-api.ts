import type { Policy } from '@kringle/contracts/policy-schema';
import { api } from './api';

/**
 * The policy numbers in force (GET /common/policy). Every text that states a number of hours,
 * minutes or bookings reads them from here, never from built-in defaults: an operator may change them.
 */
export const policyApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPolicy: build.query<Policy, void>({ query: () => '/common/policy' }),
  }),
});

export const { useGetPolicyQuery } = policyApi;
