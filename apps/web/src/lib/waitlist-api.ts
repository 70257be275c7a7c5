import type { Location } from '@kringle/contracts/catalogue';
import type { JoinWaitlistBody, WaitlistEntry, WaitlistList } from '@kringle/contracts/waitlist';
import { api } from './api';

/**
 * The waitlist (API.md "Waitlist", issue 20). Shared infrastructure like the policy: the Session
 * step joins, My Bookings lists and leaves, and no feature imports another.
 */
const waitlistApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** Names for the entries' locations and session types (the catalogue, as the wizard reads it). */
    getWaitlistPlaces: build.query<Location[], void>({
      query: () => '/common/locations',
      transformResponse: (body: { items: Location[] }) => body.items,
    }),
    getWaitlist: build.query<WaitlistEntry[], void>({
      query: () => '/waitlist',
      transformResponse: (body: WaitlistList) => body.items,
    }),
    joinWaitlist: build.mutation<WaitlistEntry, JoinWaitlistBody>({
      query: (body) => ({ url: '/waitlist', method: 'POST', body }),
      async onQueryStarted(_arg, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(waitlistApi.util.updateQueryData('getWaitlist', undefined, (list) => void list.push(data)));
      },
    }),
    leaveWaitlist: build.mutation<void, string>({
      query: (id) => ({ url: `/waitlist/${id}`, method: 'DELETE' }),
      async onQueryStarted(id, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.then(
          () => ({ data: true }),
          () => ({ data: false }),
        );
        if (data)
          dispatch(
            waitlistApi.util.updateQueryData('getWaitlist', undefined, (list) => list.filter((e) => e.id !== id)),
          );
      },
    }),
  }),
});

export const { useGetWaitlistPlacesQuery, useGetWaitlistQuery, useJoinWaitlistMutation, useLeaveWaitlistMutation } =
  waitlistApi;
