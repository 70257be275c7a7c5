import { combineReducers, configureStore, type Reducer } from '@reduxjs/toolkit';
import { setupListeners } from '@reduxjs/toolkit/query';
import {
  createTransform,
  FLUSH,
  PAUSE,
  PERSIST,
  persistReducer,
  persistStore,
  PURGE,
  REGISTER,
  REHYDRATE,
} from 'redux-persist';
import { persistStorage } from '../lib/persist-storage';
import { authReducer, initialAuthState, type AuthState } from '../features/auth/auth-slice';
import { followOtherTabs, refreshSession, signOut, type AuthExtra } from '../features/auth/session';
import { bookingReducer } from '../features/booking-wizard/state/booking-slice';
import { followHoldAcrossTabs } from '../features/booking-wizard/hold/hold-tabs';
import { keepHoldCart } from '../features/booking-wizard/checkout/kept-cart';
import { timerReducer } from '../features/booking-wizard/state/timer-slice';
import { api } from '../lib/api';
import { toastError } from '../lib/deferred-toast';
import type { BaseQueryExtra } from '../lib/base-query';
import { appCheck } from './app-check';
import type { AppCheckAccess } from '../lib/app-check-retry';
import { API_BASE_URL, PERSIST_TIMEOUT_MS } from '../lib/env';
import { serverNow } from '../lib/server-clock';

const rootReducer = combineReducers({
  auth: authReducer,
  booking: bookingReducer,
  timer: timerReducer,
  [api.reducerPath]: api.reducer,
});
export type RootState = ReturnType<typeof rootReducer>;

/** Of auth only the user is stored; the ID token and `initialised` never touch localStorage. */
const authUserOnly = createTransform<AuthState, Partial<AuthState>>(
  (inbound) => ({ user: inbound.user }),
  // The reconciler replaces the whole slice, so hand back a complete (uninitialised) state.
  (outbound) => ({ ...initialAuthState, user: outbound.user ?? null }),
  { whitelist: ['auth'] },
);

const persistConfig = {
  key: 'kringle',
  version: 1,
  storage: persistStorage,
  whitelist: ['auth', 'booking'],
  transforms: [authUserOnly],
  timeout: PERSIST_TIMEOUT_MS,
};

let markAuthReady: () => void = () => {};
/** Resolves once the boot refresh has finished: every API call waits for it (spec §7). */
const authReady = new Promise<void>((resolve) => {
  markAuthReady = resolve;
});

export type StoreExtra = AuthExtra & BaseQueryExtra;

/**
 * Every way the app calls the API sends the same app-check token and follows one retry rule (lib/app-check-retry.ts).
 */
const appCheckAccess: AppCheckAccess = {
  getAppCheckToken: () => appCheck.getToken(),
  invalidateAppCheck: () => appCheck.invalidate(),
};

const extra: StoreExtra = {
  auth: {
    apiBaseUrl: API_BASE_URL,
    ...appCheckAccess,
    purgePersisted: () => persistor.purge(),
  },
  baseQuery: {
    baseUrl: API_BASE_URL,
    selectAuth: (state) => {
      const auth = (state as RootState).auth;
      // An ID token about to expire is refreshed before the call rather than after a 401.
      const stale = auth.expiresAt !== null && Date.parse(auth.expiresAt) - 30_000 < serverNow();
      return stale ? { ...auth, idToken: null } : auth;
    },
    whenAuthReady: () => authReady,
    refreshIdToken: (dispatch) => (dispatch as AppDispatch)(refreshSession()).unwrap(),
    // The session is already gone on the server's side (refused, or another tab ended it): ended here.
    signOut: async (dispatch) => {
      await (dispatch as AppDispatch)(signOut({ callServer: false }));
    },
    ...appCheckAccess,
    notifyError: (message) => void toastError(message),
  },
};

export const store = configureStore({
  reducer: persistReducer<RootState>(persistConfig, rootReducer as Reducer<RootState>),
  middleware: (getDefault) =>
    getDefault({
      thunk: { extraArgument: extra },
      serializableCheck: { ignoredActions: [FLUSH, REHYDRATE, PAUSE, PERSIST, PURGE, REGISTER] },
    }).concat(api.middleware),
});
export type AppDispatch = typeof store.dispatch;

export const persistor = persistStore(store);
setupListeners(store.dispatch);
// Sign-out, sign-in, refreshes and staff refusals in one tab reach every tab (issue 14).
followOtherTabs(store);
// The hold, too: a session chosen in one tab replaces the one held in another (hold-tabs.ts).
followHoldAcrossTabs(store, `persist:${persistConfig.key}`);
// The packages chosen for the hold outlive a sign-out, for that hold only (kept-cart.ts).
keepHoldCart(store);

const unsubscribe = store.subscribe(() => {
  if (store.getState().auth.initialised) {
    markAuthReady();
    unsubscribe();
  }
});
