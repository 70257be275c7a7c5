import type { AvailableDates, AvailableSlots, Slot } from '@kringle/contracts/catalogue';
import { apiFetch, apiUrl } from '../../../lib/api-fetch';
import { parseSse } from '../../../lib/sse';
import type { BaseQueryExtra } from '../../../lib/base-query';
import { bookingApi, type AvailableDatesArgs, type AvailableSlotsArgs } from '../api';

/** One `event: slot` of GET /booking-slot/{locationId}/live (decision 0026). */
export interface SlotChange {
  slotId: string;
  date: string;
  status: Slot['status'];
}

const isChange = (v: unknown): v is SlotChange =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as SlotChange).slotId === 'string' &&
  typeof (v as SlotChange).date === 'string' &&
  typeof (v as SlotChange).status === 'string';

type State = { api: { queries: Record<string, { endpointName?: string; originalArgs?: unknown } | undefined> } };

/**
 * Applies one change to the cached day lists (and the day's count) of that location: no refetch, so drop day costs the
 * API nothing.
 */
function applyChange(
  locationId: string,
  change: SlotChange,
  getState: () => unknown,
  dispatch: (a: unknown) => unknown,
) {
  const queries = Object.values((getState() as State).api.queries);
  let was: Slot['status'] | null = null;
  for (const q of queries) {
    if (q?.endpointName !== 'getAvailableSlots') continue;
    const args = q.originalArgs as AvailableSlotsArgs;
    if (args.locationId !== locationId || args.date !== change.date) continue;
    dispatch(
      bookingApi.util.updateQueryData('getAvailableSlots', args, (draft: AvailableSlots) => {
        const slot = draft.items.find((s) => s.id === change.slotId);
        if (!slot) return;
        was ??= slot.status;
        slot.status = change.status;
      }),
    );
  }
  // The day's count moves by one when a session we knew about changes between free and not.
  if (was === null || (was === 'available') === (change.status === 'available')) return;
  const delta = change.status === 'available' ? 1 : -1;
  for (const q of queries) {
    if (q?.endpointName !== 'getAvailableDates') continue;
    const args = q.originalArgs as AvailableDatesArgs;
    if (args.locationId !== locationId) continue;
    dispatch(
      bookingApi.util.updateQueryData('getAvailableDates', args, (draft: AvailableDates) => {
        const day = draft.items.find((d) => d.date === change.date);
        if (day) day.available = Math.max(0, Math.min(day.sessions ?? Infinity, day.available + delta));
      }),
    );
  }
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/**
 * `live`: whether this location's changes are being pushed right now. While it is false the
 * Session step polls as before (the stream refused with 503, the network dropped it, or it failed).
 */
export const liveSlotsApi = bookingApi.injectEndpoints({
  endpoints: (build) => ({
    slotChanges: build.query<{ live: boolean }, string>({
      queryFn: () => ({ data: { live: false } }),
      // The stream closes as soon as no Session step shows the location (not a minute later).
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
            const { response: res } = await apiFetch(deps, apiUrl(deps.baseUrl, `/booking-slot/${locationId}/live`), {
              headers: { Accept: 'text/event-stream', ...(token ? { Authorization: `Bearer ${token}` } : {}) },
              signal: stop.signal,
              cache: 'no-store',
            });
            // 503: this server cannot hear changes now. 401: the ID token will be refreshed by the next ordinary call.
            if (!res.ok || !res.body) throw new Error(`live: ${res.status}`);
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
                if (m.event !== 'slot') continue;
                const change: unknown = JSON.parse(m.data);
                if (isChange(change)) applyChange(locationId, change, getState, dispatch as (a: unknown) => unknown);
              }
            }
            waitMs = retryMs;
          } catch {
            failures += 1;
            // Backs off to half a minute; the list polls meanwhile.
            waitMs = Math.min(30_000, retryMs * 2 ** Math.min(failures - 1, 4));
          }
          if (stop.signal.aborted) break;
          setLive(false);
          // What changed while we were away is fetched again by the day's own query.
          await sleep(waitMs, stop.signal);
        }
      },
    }),
  }),
});

export const { useSlotChangesQuery } = liveSlotsApi;
