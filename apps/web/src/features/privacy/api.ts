import type { FamilyConsent, FamilyConsentKind, SetFamilyConsentBody } from '@kringle/contracts/family-consents';
import type { DeleteAccountBody, DeleteAccountResult, PrivacyPolicy } from '@kringle/contracts/privacy';
import { api } from '../../lib/api';

/**
 * API.md "Privacy": the policy (public), the family's choices apart from any booking (news, showing its photos;
 * issue 51) and the account's deletion; the export is a file download.
 */
export const privacyApi = api.injectEndpoints({
  endpoints: (build) => ({
    getPrivacyPolicy: build.query<PrivacyPolicy, void>({
      query: () => '/common/privacy',
      extraOptions: { skipAuth: true },
    }),
    getFamilyConsents: build.query<{ items: FamilyConsent[] }, void>({
      query: () => '/user/consents',
      keepUnusedDataFor: 0,
    }),
    setFamilyConsent: build.mutation<FamilyConsent, SetFamilyConsentBody & { kind: FamilyConsentKind }>({
      query: ({ kind, ...body }) => ({ url: `/user/consents/${kind}`, method: 'PUT', body }),
      // The answer is the choice as it now stands: it replaces its line in the list.
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (!data) return;
        dispatch(
          privacyApi.util.updateQueryData('getFamilyConsents', undefined, (draft) => {
            draft.items = draft.items.map((c) => (c.kind === data.kind ? data : c));
          }),
        );
      },
    }),
    deleteAccount: build.mutation<DeleteAccountResult, DeleteAccountBody>({
      query: (body) => ({ url: '/user', method: 'DELETE', body }),
    }),
  }),
});

export const {
  useGetPrivacyPolicyQuery,
  useGetFamilyConsentsQuery,
  useSetFamilyConsentMutation,
  useDeleteAccountMutation,
} = privacyApi;
