import { QUEUE_TICKET_STATUSES, type QueueTicket } from '@kringle/contracts/queue';
import { apiFetch, apiUrl } from '../../../lib/api-fetch';
import type { BaseQueryExtra } from '../../../lib/base-query';
import { queueApi } from '../../../lib/queue-api';
import { parseSse } from '../../../lib/sse';

const isTicket = (v: unknown): v is QueueTicket =>
  typeof v === 'object' &&
  v !== null &&
  (QUEUE_TICKET_STATUSES as readonly string[]).includes((v as { status?: string }).status ?? '');

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(timer), resolve()), { once: true });
  });

/**
 * GET /queue/{locationId}/live (decision 0053): every `event: ticket` replaces the cached ticket.
 * `live` says whether the stream is open; while it is not, the page polls more often.
 */
export const queueLiveApi = queueApi.injectEndpoints({
  endpoints: (build) => ({
    queueLive: build.query<{ live: boolean }, string>({
      queryFn: () => ({ data: { live: false } }),
      keepUnusedDataFor: 0,
      async onCacheEntryAdded(
        locationId,
        { cacheDataLoaded, cacheEntryRemoved, updateCachedData, getState, dispatch, extra },
      ) {
        const deps = (extra as BaseQueryExtra).baseQuery;
        const stop = new AbortController();
        void cacheEntryRemoved.then(() => stop.abort());
        await cacheDataLoaded.catch(() => stop.abort());
        const setLive = (live: boolean) => updateCachedData((d) => void (d.live = live));
        let retryMs = 3000;
        let failures = 0;
        while (!stop.signal.aborted) {
          let waitMs = retryMs;
          try {
            await deps.whenAuthReady();
            const token = deps.selectAuth(getState()).idToken;
            const { response: res } = await apiFetch(deps, apiUrl(deps.baseUrl, `/queue/${locationId}/live`), {
              headers: { Accept: 'text/event-stream', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
              signal: stop.signal,
              cache: 'no-store',
            });
            if (!res.ok || !res.body) throw new Error(`queue live: ${res.status}`);
            failures = 0;
            setLive(true);
            const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
            let buffer = '';
            for (;;) {
              const { value, done } = await reader.read();
              if (done) break;
              const parsed = parseSse(buffer + value);
              buffer = parsed.rest;
              if (parsed.retryMs) retryMs = parsed.retryMs;
              for (const m of parsed.messages) {
                if (m.event !== 'ticket') continue;
                const ticket: unknown = JSON.parse(m.data);
                if (isTicket(ticket)) dispatch(queueApi.util.upsertQueryData('getQueueTicket', locationId, ticket));
              }
            }
          } catch {
            failures += 1;
            waitMs = Math.min(30_000, retryMs * 2 ** Math.min(failures - 1, 4));
          }
          if (stop.signal.aborted) break;
          setLive(false);
          await sleep(waitMs, stop.signal);
        }
      },
    }),
  }),
});

export const { useQueueLiveQuery } = queueLiveApi;
