import type { QueueTicket } from '@kringle/contracts/queue';
import { api } from './api';

/** The fair start's waiting room (API.md "Additions (2026-11-26)" → "Fair start", decision 0053). */
export const queueApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The family's ticket; 404 when not in the line. */
    getQueueTicket: build.query<QueueTicket, string>({
      query: (locationId) => `/queue/${locationId}`,
    }),
    /** One tap; again (another tab or device) gives the same place. */
    joinQueue: build.mutation<QueueTicket, string>({
      query: (locationId) => ({ url: `/queue/${locationId}`, method: 'POST' }),
      async onQueryStarted(locationId, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(queueApi.util.upsertQueryData('getQueueTicket', locationId, data));
      },
    }),
  }),
});

export const { useGetQueueTicketQuery, useJoinQueueMutation } = queueApi;
