/** API.md: after a 403 or 404 the exchange is not retried for 24 hours (fixed). */
export const LONG_BACKOFF_MS = 24 * 60 * 60 * 1000;
/** API.md / spec §9: other failures back off exponentially from 1000 ms, base 2 ... */
const BASE_BACKOFF_MS = 1000;
const BACKOFF_FACTOR = 2;
/** ... capped at 16 minutes. */
export const MAX_BACKOFF_MS = 16 * 60 * 1000;

/**
 * How long to wait before the next exchange attempt, given the HTTP status of the failure
 * (0 when the request never got an answer) and how many failures came before this one.
 */
export function appCheckBackoffMs(httpStatus: number, previousFailures: number): number {
  if (httpStatus === 403 || httpStatus === 404) return LONG_BACKOFF_MS;
  return Math.min(BASE_BACKOFF_MS * BACKOFF_FACTOR ** Math.max(0, previousFailures), MAX_BACKOFF_MS);
}
