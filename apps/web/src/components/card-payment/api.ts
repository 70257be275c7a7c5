import type { StripeClientConfig } from '@kringle/contracts/cart';
import { api } from '../../lib/api';

/** The publishable key and whether it is the local sandbox: every card form asks this first. */
export const cardPaymentApi = api.injectEndpoints({
  endpoints: (build) => ({
    stripeConfig: build.query<StripeClientConfig, void>({
      query: () => '/common/stripe-client-secret',
    }),
  }),
});

export const { useStripeConfigQuery } = cardPaymentApi;
