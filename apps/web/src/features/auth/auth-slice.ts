import { createSlice, type PayloadAction } from '@reduxjs/toolkit';
import type { User } from '@kringle/contracts/accounts';
import { resetStore } from '../../lib/reset-action';

/**
 * Spec §3 "Auth state: user". Only `user` is persisted (see app/store.ts); the ID token stays
 * in memory and is re-obtained from the httpOnly refresh cookie on reload, so a stolen
 * localStorage never holds a usable credential.
 */
export interface AuthState {
  user: User | null;
  idToken: string | null;
  /** ISO instant the ID token expires. */
  expiresAt: string | null;
  /** False until the boot refresh has finished: guards wait instead of flashing /login. */
  initialised: boolean;
  /**
   * True once this page's session ended (Logout, here or in another tab, or refused): the guard
   * then lands on /login whatever the page (issue 37 item 10: logout lands in one place); a guest
   * arriving keeps each route's own redirect (spec §2). Never stored.
   */
  signedOutHere?: boolean;
}

export interface SessionPayload {
  idToken: string;
  expiresAt: string;
  user: User;
}

export const initialAuthState: AuthState = { user: null, idToken: null, expiresAt: null, initialised: false };

const authSlice = createSlice({
  name: 'auth',
  initialState: initialAuthState,
  reducers: {
    sessionStarted(state, action: PayloadAction<SessionPayload>) {
      state.user = action.payload.user;
      state.signedOutHere = false;
      state.idToken = action.payload.idToken;
      state.expiresAt = action.payload.expiresAt;
    },
    /** After GET /user/me (e.g. the verify-email screen reloading the user). */
    userUpdated(state, action: PayloadAction<User>) {
      state.user = action.payload;
    },
    signedOut(state) {
      state.signedOutHere = true;
      state.user = null;
      state.idToken = null;
      state.expiresAt = null;
    },
    authInitialised(state) {
      state.initialised = true;
    },
  },
  extraReducers: (builder) => {
    // A reset happens only once the app is running, so the session stays "initialised" (and, after a sign-out, signed
    // out here).
    builder.addCase(resetStore, (state) => ({
      ...initialAuthState,
      initialised: true,
      signedOutHere: state.signedOutHere,
    }));
  },
});

export const { sessionStarted, userUpdated, signedOut, authInitialised } = authSlice.actions;
export const authReducer = authSlice.reducer;
