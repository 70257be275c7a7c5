import { createAsyncThunk } from '@reduxjs/toolkit';
import type * as AccountsSchemas from '@kringle/contracts/accounts';
import type { User } from '@kringle/contracts/accounts';
import { ERROR_CATALOGUE } from '@kringle/contracts/error-catalogue';
import { api } from '../../lib/api';
import { apiFetch, apiUrl } from '../../lib/api-fetch';
import { isAppCheckCode, type AppCheckAccess } from '../../lib/app-check-retry';
import { toastError } from '../../lib/deferred-toast';
import { isStaffToken } from '../../lib/jwt';
import { resetStore } from '../../lib/reset-action';
import { authInitialised, sessionStarted, signedOut, type AuthState, type SessionPayload } from './auth-slice';
import { listenToOtherTabs, sessionFromOtherTabSince, tellOtherTabs, withRefreshLock } from './tab-sync';

export const STAFF_REFUSED_MESSAGE = ERROR_CATALOGUE.STAFF_NOT_ALLOWED.text;

/** Injected through the store's thunk `extra` (app/store.ts). */
export interface AuthExtra {
  auth: AppCheckAccess & {
    apiBaseUrl: string;
    fetchFn?: typeof fetch;
    purgePersisted: () => Promise<void>;
  };
}

type ThunkConfig = { state: { auth: AuthState }; extra: AuthExtra };

async function errorCode(response: Response): Promise<string | null> {
  try {
    const body = (await response.clone().json()) as { code?: unknown };
    return typeof body.code === 'string' ? body.code : null;
  } catch {
    return null;
  }
}

/** The refresh-cookie calls (its path is /api/v1/auth), through the one request path. */
async function authPost(extra: AuthExtra['auth'], path: string): Promise<Response> {
  return (await apiFetch(extra, apiUrl(extra.apiBaseUrl, path), { method: 'POST' })).response;
}

/** Only a 401 about the session itself means the refresh cookie is gone. */
async function sessionRefused(response: Response): Promise<boolean> {
  return response.status === 401 && !isAppCheckCode(await errorCode(response));
}

/**
 * Sign-outs started in this tab. A refresh that began before one may answer after it (Logout
 * tapped while the page restores its session): its session is dropped, not stored over the sign-out.
 */
let signOuts = 0;

/**
 * Signing out clears and purges stored state (spec §4); the server revokes the refresh family, and
 * every other tab signs out too (`tellTabs: false` when this sign-out came from another tab).
 */
export const signOut = createAsyncThunk<void, { callServer?: boolean; tellTabs?: boolean } | undefined, ThunkConfig>(
  'auth/signOut',
  async (options, { dispatch, extra }) => {
    signOuts++;
    refreshInFlight = null; // a refresh from before the sign-out is not one a later call may join
    if (options?.callServer !== false) await authPost(extra.auth, '/auth/sign-out').catch(() => undefined);
    if (options?.tellTabs !== false) tellOtherTabs({ type: 'signed-out' });
    dispatch(signedOut());
    dispatch(api.util.resetApiState());
    dispatch(resetStore());
    await extra.auth.purgePersisted();
  },
);

/**
 * Stores a session from sign-in or refresh. Staff tokens (claim dashboard_user) are refused:
 * signed out, purged, reset, and told 'Not Authorized to login' (a toast, unless the caller shows
 * it: `refusalShown`). Resolves false when refused.
 */
export const setSession = createAsyncThunk<boolean, SessionPayload & { refusalShown?: boolean }, ThunkConfig>(
  'auth/setSession',
  async ({ refusalShown, ...session }, { dispatch }) => {
    if (isStaffToken(session.idToken)) {
      await dispatch(signOut({ tellTabs: false }));
      tellOtherTabs({ type: 'staff-refused' });
      // Said once (issue 37 item 10): the log-in form says it in its own alert, with the way to /staff.
      if (!refusalShown) await toastError(STAFF_REFUSED_MESSAGE);
      return false;
    }
    dispatch(sessionStarted(session));
    tellOtherTabs({ type: 'session', session });
    return true;
  },
);

let accountsSchemas: Promise<typeof AccountsSchemas> | null = null;

/**
 * The accounts schemas (zod with them), loaded once. Whoever waits for them goes on in a later
 * task than their evaluation: evaluated in the task that then parsed the user and started the
 * session (a render of everything that reads it), they made one long task after the refresh on
 * My Bookings (decision 0036, Since: /bookings).
 */
function loadAccountsSchemas() {
  accountsSchemas ??= import('@kringle/contracts/accounts')
    .then((schemas) => new Promise<typeof schemas>((resolve) => setTimeout(() => resolve(schemas), 0)))
    .catch((error: unknown) => {
      accountsSchemas = null; // a failed chunk load is tried again at the next refresh
      throw error;
    });
  return accountsSchemas;
}

/**
 * Checks the user of a refresh answer. The schema (and zod with it) loads only when there is a
 * session to check, so a guest's first page does not download the validation library.
 */
async function parseUser(value: unknown): Promise<User | null> {
  const { userSchema } = await loadAccountsSchemas();
  const user = userSchema.safeParse(value);
  return user.success ? user.data : null;
}

/**
 * What refreshSession rejects with when no token could be had just now (offline, a 5xx, a 429, app
 * check): the session itself stands, so callers keep the family signed in and try again later.
 */
export const REFRESH_UNAVAILABLE = 'refresh-unavailable';

let refreshInFlight: Promise<string | null | typeof REFRESH_UNAVAILABLE> | null = null;

type RefreshOutcome = { session: SessionPayload } | { refused: boolean } | { signedOutMeanwhile: true };

/**
 * One refresh across all tabs: under the cross-tab lock, a session another tab obtained while
 * this one waited is taken as is; otherwise the cookie is traded (and the new session published
 * by setSession). `refused` is true only when the server refused the session itself.
 */
async function refreshAcrossTabs(extra: AuthExtra['auth']): Promise<RefreshOutcome> {
  const askedAt = Date.now();
  const signOutsBefore = signOuts;
  const outcome = await withRefreshLock(async (): Promise<RefreshOutcome> => {
    const fromOtherTab = sessionFromOtherTabSince(askedAt);
    if (fromOtherTab) return { session: fromOtherTab };
    let response: Response;
    try {
      response = await authPost(extra, '/auth/refresh');
    } catch {
      return { refused: false }; // offline: keep the user, the next call tries again
    }
    if (!response.ok) return { refused: await sessionRefused(response) };
    const body = (await response.json()) as { idToken: string; expiresAt: string; user: unknown };
    const user = await parseUser(body.user);
    return user ? { session: { idToken: body.idToken, expiresAt: body.expiresAt, user } } : { refused: false };
  });
  // Callers act on the outcome without awaiting anything else first, so no sign-out comes between.
  return signOuts === signOutsBefore ? outcome : { signedOutMeanwhile: true };
}

/**
 * Trades the refresh cookie for a new ID token: null when the session is gone (the cookie refused,
 * or a staff token), rejected with REFRESH_UNAVAILABLE when it could not be asked or answered now.
 * Single-flight in the tab and one at a time across tabs (refreshAcrossTabs), so parallel 401s
 * share one rotation of the cookie.
 */
export const refreshSession = createAsyncThunk<
  string | null,
  void,
  ThunkConfig & { rejectValue: typeof REFRESH_UNAVAILABLE }
>('auth/refresh', async (_, { dispatch, extra, rejectWithValue }) => {
  if (!refreshInFlight) {
    const flight = (async () => {
      const outcome = await refreshAcrossTabs(extra.auth);
      if ('signedOutMeanwhile' in outcome) return null;
      if (!('session' in outcome)) return outcome.refused ? null : REFRESH_UNAVAILABLE;
      const accepted = await dispatch(setSession(outcome.session)).unwrap();
      return accepted ? outcome.session.idToken : null;
    })().finally(() => {
      if (refreshInFlight === flight) refreshInFlight = null;
    });
    refreshInFlight = flight;
  }
  const token = await refreshInFlight;
  return token === REFRESH_UNAVAILABLE ? rejectWithValue(token) : token;
});

/**
 * Boot: with a persisted user, get an ID token before any call runs (calls wait for
 * `initialised`), so a reload never flashes the login page. A refused cookie signs out.
 */
export const initialiseSession = createAsyncThunk<void, void, ThunkConfig>(
  'auth/initialise',
  async (_, { dispatch, getState, extra }) => {
    try {
      if (getState().auth.user) {
        // Fetched alongside the refresh (which waits for the app check), parsed after it; not
        // earlier, where its download and evaluation held up the page's first render (decision 0034).
        void extra.auth
          .getAppCheckToken()
          .catch(() => null)
          .then(loadAccountsSchemas)
          .catch(() => null); // parseUser loads it again and reports a failure
        const outcome = await refreshAcrossTabs(extra.auth);
        if ('session' in outcome) await dispatch(setSession(outcome.session));
        else if ('refused' in outcome && outcome.refused) await dispatch(signOut({ callServer: false }));
        // A sign-out meanwhile has done it all; anything else (offline, 5xx, 429, app check): keep
        // the user, the first call retries.
      }
    } finally {
      dispatch(authInitialised());
    }
  },
);

/**
 * Follows the other tabs: their sign-out signs this tab out and purges it (spec §4), their staff
 * refusal too, with the same message; a session they started or refreshed is taken over (or,
 * through the storage fallback that carries no token, fetched with this tab's own refresh).
 */
export function followOtherTabs(store: {
  dispatch: (action: never) => unknown;
  getState: () => { auth: AuthState };
}): () => void {
  const dispatch = store.dispatch as (action: unknown) => unknown;
  return listenToOtherTabs((message) => {
    if (message.type === 'signed-out') void dispatch(signOut({ callServer: false, tellTabs: false }));
    else if (message.type === 'staff-refused') {
      void dispatch(signOut({ callServer: false, tellTabs: false }));
      void toastError(STAFF_REFUSED_MESSAGE);
    } else if (message.session && !isStaffToken(message.session.idToken)) dispatch(sessionStarted(message.session));
    // Only a tab without a token asks: tabs answering each other's news would never stop.
    else if (!message.session && !store.getState().auth.idToken) void dispatch(refreshSession());
  });
}
