import type { PublicCatalogue } from '@kringle/contracts/public-catalogue';
import type { QueueReport, QueueTicket, QueueWants } from '@kringle/contracts/queue';
import { api } from './api';

/** The fair start's waiting room (API.md "Additions (2026-11-26)" → "Fair start", decision 0053). */
export const queueApi = api.injectEndpoints({
  endpoints: (build) => ({
    /** The family's ticket; 404 when not in the line. */
    getQueueTicket: build.query<QueueTicket, string>({
      query: (locationId) => `/queue/${locationId}`,
    }),
    /** One tap; again (another tab or device) gives the same place. `wants`: what to hold at the turn (0116). */
    joinQueue: build.mutation<QueueTicket, { locationId: string; wants?: QueueWants }>({
      query: ({ locationId, wants }) => ({
        url: `/queue/${locationId}`,
        method: 'POST',
        ...(wants ? { body: { wants } } : {}),
      }),
      async onQueryStarted({ locationId }, { dispatch, queryFulfilled }) {
        const { data } = await queryFulfilled.catch(() => ({ data: null }));
        if (data) dispatch(queueApi.util.upsertQueryData('getQueueTicket', locationId, data));
      },
    }),
    /** The drop's public report (issue 55): 404 until the draw. */
    getQueueReport: build.query<QueueReport, string>({
      query: (locationId) => `/queue/${locationId}/report`,
    }),
    /** What a visitor can book (public): the report names its location and shows its local time. */
    getPublicCatalogue: build.query<PublicCatalogue, void>({ query: () => '/common/catalogue' }),
  }),
});

export const { useGetQueueTicketQuery, useJoinQueueMutation, useGetQueueReportQuery, useGetPublicCatalogueQuery } =
  queueApi;
