import type { LiveSnapshot } from '@kringle/contracts/live';
import { useEffect, useState } from 'react';
import { ApiProblem } from '../../lib/api-error';
import { readSse } from '../../lib/sse';
import { request } from '../session/staff-client';

export type LiveState =
  | { kind: 'connecting'; figures: LiveSnapshot | null }
  | { kind: 'live'; figures: LiveSnapshot }
  | { kind: 'reconnecting'; figures: LiveSnapshot | null; problem: string }
  | { kind: 'refused'; problem: string };

const isSnapshot = (v: unknown): v is LiveSnapshot =>
  !!v &&
  typeof v === 'object' &&
  Array.isArray((v as LiveSnapshot).locations) &&
  typeof (v as LiveSnapshot).at === 'string';

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve) => {
    const t = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });

/**
 * GET /staff/live/stream read with fetch() and the staff token, as the Session step reads its
 * live stream (EventSource cannot send the Authorization header). The staff client renews the
 * token on a 401; the stream ends at the token's expiry and is opened again at once. A dropped
 * stream is retried with a back-off to 30 s, the last figures shown meanwhile; a 403 stops.
 */
export function useLiveFigures(): LiveState {
  const [state, setState] = useState<LiveState>({ kind: 'connecting', figures: null });
  useEffect(() => {
    const stop = new AbortController();
    let figures: LiveSnapshot | null = null;
    void (async () => {
      let retryMs = 3000;
      let failures = 0;
      while (!stop.signal.aborted) {
        let waitMs = retryMs;
        try {
          const res = await request('/staff/live/stream', {
            headers: { accept: 'text/event-stream' },
            signal: stop.signal,
            cache: 'no-store',
          });
          if (!res.body) throw new Error('no body');
          await readSse(res.body, {
            retry: (ms) => (retryMs = ms),
            message: (m) => {
              const data: unknown = JSON.parse(m.data);
              if (m.event !== 'message' || !isSnapshot(data)) return;
              figures = data;
              failures = 0;
              // A stream that served figures and ended (its token's expiry) is opened again at once.
              waitMs = 0;
              setState({ kind: 'live', figures: data });
            },
          });
        } catch (err) {
          if (stop.signal.aborted) break;
          if (err instanceof ApiProblem && err.status === 403) {
            setState({ kind: 'refused', problem: err.message });
            return;
          }
          failures += 1;
          waitMs = Math.min(30_000, retryMs * 2 ** Math.min(failures - 1, 4));
          const problem = err instanceof ApiProblem ? err.message : 'The live figures stopped. Trying again…';
          setState({ kind: 'reconnecting', figures, problem });
        }
        await sleep(waitMs, stop.signal);
      }
    })();
    return () => stop.abort();
  }, []);
  return state;
}
