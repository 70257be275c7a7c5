import type { AppCheckError } from '../lib/app-check';
import { createAppCheckClient } from '../lib/app-check';
import { solveInWorker } from '../lib/app-check-solver';
import { API_BASE_URL } from '../lib/env';

/** The app's one app-check client: the token is cached and shared by every call. */
export const appCheck = createAppCheckClient({
  baseUrl: API_BASE_URL,
  solve: solveInWorker,
  storage: typeof window === 'undefined' ? undefined : window.sessionStorage,
  onError: (error: AppCheckError) => {
    // Reported, not shown: the API answers with a readable error if it needs the token.
    console.warn(`[app-check] ${error.kind}`, {
      waitMs: error.waitMs,
      httpStatus: error.httpStatus,
      message: error.message,
    });
  },
});
