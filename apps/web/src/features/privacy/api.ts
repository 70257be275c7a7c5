import type { DeleteAccountBody, DeleteAccountResult, PrivacyPolicy } from '@kringle/contracts/privacy';
import { api } from '../../lib/api';

/** API.md "Privacy": the policy (public) and the account's deletion; the export is a file download. */
export const privacyApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPrivacyPolicy: build.query<PrivacyPolicy, void>({
      query: () => '/common/privacy',
      extraOptions: { skipAuth: true },
    }),
    deleteAccount: build.mutation<DeleteAccountResult, DeleteAccountBody>({
      query: (body) => ({ url: '/user', method: 'DELETE', body }),
    }),
  }),
});

export const { useGetPrivacyPolicyQuery, useDeleteAccountMutation } = privacyApi;
