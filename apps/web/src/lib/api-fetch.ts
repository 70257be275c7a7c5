import { isAppCheckCode, withAppCheckRetry, type AppCheckAccess } from './app-check-retry';
import { noteServerDate } from './server-clock';

/** What every call to the API needs: how to fetch, and the app-check token. */
export interface ApiFetchDeps extends AppCheckAccess {
  fetchFn?: typeof fetch;
}

/** RequestInit with plain headers, so the path can add its own to the caller's. */
export type ApiFetchInit = Omit<RequestInit, 'headers'> & { headers?: Record<string, string> };

/** `/api/v1` + `/auth/refresh`, with exactly one slash between them. */
export const apiUrl = (baseUrl: string, path: string): string =>
  `${baseUrl.replace(/\/$/, '')}/${path.replace(/^\//, '')}`;

/** The error body's code of a refused answer (JSON), if it has one; the answer stays readable. */
async function codeOf(response: Response): Promise<string | null> {
  const body = (await response
    .clone()
    .json()
    .catch(() => null)) as { code?: unknown } | null;
  return typeof body?.code === 'string' ? body.code : null;
}

/**
 * The one request path: every call either web app makes to the API (the customer app's base query,
 * auth cookie calls and live availability stream; the staff app's client) goes out here. It adds
 * the app-check token, sends the cookies (the refresh cookie lives on /api/v1/auth), follows the
 * app-check retry rule (app-check-retry.ts), and keeps the server's clock from the answer's Date
 * header (server-clock.ts). What a caller does with the answer (parse it, refresh its ID token,
 * stream it) stays with the caller; a refused one is read into api-error.ts's one error type.
 * `appCheckRetried` says the answer is already a second try. It rejects when fetch does (offline,
 * aborted). No Redux here: the staff bundle loads this file too.
 */
export async function apiFetch(
  deps: ApiFetchDeps,
  url: string,
  init: ApiFetchInit = {},
): Promise<{ response: Response; appCheckRetried: boolean }> {
  const fetchFn = deps.fetchFn ?? ((...a: Parameters<typeof fetch>) => fetch(...a));
  const { answer, retried } = await withAppCheckRetry(
    deps,
    (appCheck) =>
      fetchFn(url, {
        credentials: 'include',
        ...init,
        headers: { ...init.headers, ...(appCheck ? { 'X-App-Check': appCheck } : {}) },
      }),
    async (response) => response.status === 401 && isAppCheckCode(await codeOf(response)),
  );
  noteServerDate(answer.headers.get('date'));
  return { response: answer, appCheckRetried: retried };
}
