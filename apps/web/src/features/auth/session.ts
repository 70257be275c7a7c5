import { createAsyncThunk } from '@reduxjs/toolkit';
import type * as AccountsSchemas from '@kringle/contracts/accounts';
import type { User } from '@kringle/contracts/accounts';
import { ERROR_CATALOGUE } from '@kringle/contracts/error-catalogue';
import { api } from '../../lib/api';
import type { AppCheckAccess } from '../../lib/app-check-retry';
import { SESSION_UNAVAILABLE } from '../../lib/base-query';
import { toastError } from '../../lib/deferred-toast';
import { isStaffToken } from '../../lib/jwt';
import { resetStore } from '../../lib/reset-action';
import { createSessionManager, type SessionManager } from '../../lib/session-manager';
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

/**
 * The customer app's session manager (lib/session-manager.ts), one per store's auth access: the
 * rules both apps share; here its tabs take turns at the refresh (tab-sync.ts) and a staff token
 * is another app's.
 */
const managers = new WeakMap<AuthExtra['auth'], SessionManager<SessionPayload>>();
function managerOf(access: AuthExtra['auth']): SessionManager<SessionPayload> {
  let manager = managers.get(access);
  if (!manager) {
    manager = createSessionManager<SessionPayload>({
      access,
      readSession: async (body) => {
        const { idToken, expiresAt, user } = body as { idToken: string; expiresAt: string; user: unknown };
        const parsed = await parseUser(user);
        return parsed ? { idToken, expiresAt, user: parsed } : null;
      },
      isOwnToken: (idToken) => !isStaffToken(idToken),
      turns: { withRefreshLock, sessionFromOtherTabSince },
      // Not shown: a refresh that cannot be had now reads as SESSION_UNAVAILABLE where it matters.
      words: { unreachable: SESSION_UNAVAILABLE },
    });
    managers.set(access, manager);
  }
  return manager;
}

/**
 * Signing out clears and purges stored state (spec §4); the server revokes the refresh family, and
 * every other tab signs out too (`tellTabs: false` when this sign-out came from another tab).
 */
export const signOut = createAsyncThunk<void, { callServer?: boolean; tellTabs?: boolean } | undefined, ThunkConfig>(
  'auth/signOut',
  async (options, { dispatch, extra }) => {
    await managerOf(extra.auth).signOut({ callServer: options?.callServer !== false });
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

/**
 * Trades the refresh cookie for a new ID token: null when the session is gone (the cookie refused,
 * or a staff token), rejected with REFRESH_UNAVAILABLE when it could not be asked or answered now.
 * Single-flight in the tab and one at a time across tabs (the session manager), so parallel 401s
 * share one rotation of the cookie. A session obtained is stored and published by setSession.
 */
export const refreshSession = createAsyncThunk<
  string | null,
  void,
  ThunkConfig & { rejectValue: typeof REFRESH_UNAVAILABLE }
>('auth/refresh', async (_, { dispatch, extra, rejectWithValue }) => {
  const store = async (session: SessionPayload) => dispatch(setSession(session)).unwrap();
  try {
    return await managerOf(extra.auth).renew({ keep: store, refuse: store });
  } catch {
    return rejectWithValue(REFRESH_UNAVAILABLE);
  }
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
        const outcome = await managerOf(extra.auth).trade();
        // setSession refuses a staff session ('foreign') as it stores a customer's.
        if (outcome.kind === 'session' || outcome.kind === 'foreign') await dispatch(setSession(outcome.session));
        else if (outcome.kind === 'gone') await dispatch(signOut({ callServer: false }));
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
