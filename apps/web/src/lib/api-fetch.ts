import { isAppCheckCode, withAppCheckRetry, type AppCheckAccess } from './app-check-retry';
import { noteServerDate } from './server-clock';

/** What every call to the API needs: how to fetch, and the app-check token. */
export interface ApiFetchDeps extends AppCheckAccess {
  fetchFn?: typeof fetch;
}

/** `/api/v1` + `/auth/refresh`, with exactly one slash between them. */
export const apiUrl = (baseUrl: string, path: string): string => `${baseUrl.replace(/\/$/, '')}/${path.replace(/^\//, '')}`;

/** The error body's code of a refused answer (JSON), if it has one; the answer stays readable. */
async function codeOf(response: Response): Promise<string | null> {
  const body = (await response.clone().json().catch(() => null)) as { code?: unknown } | null;
  return typeof body?.code === 'string' ? body.code : null;
}

/**
 * The one request path: every call the web app makes to the API (the base query, the auth cookie
 * calls, the live availability stream) goes out here. It adds the app-check token, sends the
 * cookies (the refresh cookie lives on /api/v1/auth), follows the app-check retry rule
 * (app-check-retry.ts), and keeps the server's clock from the answer's Date header
 * (server-clock.ts). What a caller does with the answer (parse it, refresh the ID token, stream it)
 * stays with the caller. `appCheckRetried` says the answer is already a second try.
 */
export async function apiFetch(deps: ApiFetchDeps, url: string, init: Omit<RequestInit, 'headers'> & { headers?: Record<string, string> } = {}): Promise<{ response: Response; appCheckRetried: boolean }> {
  const fetchFn = deps.fetchFn ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const { answer, retried } = await withAppCheckRetry(
    deps,
    (appCheck) => fetchFn(url, { credentials: 'include', ...init, headers: { ...init.headers, ...(appCheck ? { 'X-App-Check': appCheck } : {}) } }),
    async (response) => response.status === 401 && isAppCheckCode(await codeOf(response)),
  );
  noteServerDate(answer.headers.get('date'));
  return { response: answer, appCheckRetried: retried };
}
