import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { toast } from 'sonner';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { User } from '@kringle/contracts/accounts';
import { resetStore } from '../../lib/reset-action';
import { authReducer, type AuthState } from './auth-slice';
import {
  initialiseSession,
  REFRESH_UNAVAILABLE,
  refreshSession,
  setSession,
  signOut,
  STAFF_REFUSED_MESSAGE,
} from './session';

vi.mock('sonner', () => ({ toast: { error: vi.fn(), success: vi.fn() } }));

const user: User = {
  id: '7d9a4a8e-4a8e-4a8e-8a8e-4a8e4a8e4a8e',
  email: 'holly@example.com',
  emailVerified: true,
  firstName: 'Holly',
  lastName: 'Winters',
  displayName: 'Holly Winters',
  phone: null,
  sms: { reminders: false },
  preferredLocationId: null,
  createdAt: '2026-11-01T00:00:00.000Z',
};

const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const jwt = (claims: object) => `${b64({ alg: 'ES256' })}.${b64(claims)}.sig`;
const customerToken = jwt({ sub: user.id, dashboard_user: false });
const staffToken = jwt({ sub: user.id, dashboard_user: true });

function makeStore(auth: Partial<AuthState>, fetchFn: typeof fetch) {
  const purgePersisted = vi.fn(async () => {});
  const store = configureStore({
    reducer: combineReducers({
      auth: authReducer,
      resets: (n: number = 0, a: { type: string }) => (a.type === resetStore.type ? n + 1 : n),
    }),
    preloadedState: { auth: { user: null, idToken: null, expiresAt: null, initialised: false, ...auth } },
    middleware: (getDefault) =>
      getDefault({
        thunk: {
          extraArgument: {
            auth: { apiBaseUrl: '/api/v1', fetchFn, getAppCheckToken: async () => 'ac', purgePersisted },
          },
        },
      }),
  });
  return { store, purgePersisted };
}

const okSession = (token = customerToken) =>
  new Response(JSON.stringify({ idToken: token, expiresAt: '2026-12-01T00:15:00Z', user }), { status: 200 });

describe('session', () => {
  beforeEach(() => vi.mocked(toast.error).mockClear());

  it('setSession stores the user and the in-memory ID token', async () => {
    const { store } = makeStore({}, vi.fn());
    expect(await store.dispatch(setSession({ idToken: customerToken, expiresAt: 'x', user })).unwrap()).toBe(true);
    expect(store.getState().auth).toMatchObject({ user, idToken: customerToken });
  });

  it("refuses staff tokens: signs out, purges, resets, 'Not Authorized to login'", async () => {
    const fetchFn = vi.fn(async () => new Response(null, { status: 204 }));
    const { store, purgePersisted } = makeStore({ initialised: true }, fetchFn as unknown as typeof fetch);
    expect(await store.dispatch(setSession({ idToken: staffToken, expiresAt: 'x', user })).unwrap()).toBe(false);
    expect(store.getState().auth).toEqual({
      user: null,
      idToken: null,
      expiresAt: null,
      initialised: true,
      signedOutHere: true,
    });
    expect(store.getState().resets).toBe(1);
    expect(purgePersisted).toHaveBeenCalled();
    expect(fetchFn).toHaveBeenCalledWith(
      '/api/v1/auth/sign-out',
      expect.objectContaining({ method: 'POST', credentials: 'include' }),
    );
    expect(toast.error).toHaveBeenCalledWith(STAFF_REFUSED_MESSAGE);
  });

  it('refresh is single-flight: parallel callers share one call (the cookie rotates)', async () => {
    const fetchFn = vi.fn(async () => okSession());
    const { store } = makeStore({ user, initialised: true }, fetchFn as unknown as typeof fetch);
    const tokens = await Promise.all([1, 2, 3].map(() => store.dispatch(refreshSession()).unwrap()));
    expect(tokens).toEqual([customerToken, customerToken, customerToken]);
    expect(fetchFn).toHaveBeenCalledTimes(1);
    expect(fetchFn).toHaveBeenCalledWith(
      '/api/v1/auth/refresh',
      expect.objectContaining({ credentials: 'include', headers: { 'X-App-Check': 'ac' } }),
    );
  });

  it('refresh answers null when the cookie is refused', async () => {
    const { store } = makeStore(
      { user, initialised: true },
      vi.fn(async () => new Response('{}', { status: 401 })) as unknown as typeof fetch,
    );
    expect(await store.dispatch(refreshSession()).unwrap()).toBeNull();
  });

  it('refresh rejects, and keeps the user, when it cannot be answered now: offline, a 5xx, a 429', async () => {
    const answers = [
      () => Promise.reject(new TypeError('offline')),
      async () => new Response('{}', { status: 503 }),
      async () =>
        new Response(JSON.stringify({ error: 'Too many attempts. Try again in 30 seconds.', code: 'RATE_LIMITED' }), {
          status: 429,
          headers: { 'Retry-After': '30' },
        }),
    ];
    for (const answer of answers) {
      const { store, purgePersisted } = makeStore(
        { user, idToken: customerToken, initialised: true },
        vi.fn(answer) as unknown as typeof fetch,
      );
      const result = await store.dispatch(refreshSession());
      expect(result.meta.requestStatus).toBe('rejected');
      expect(result.payload).toBe(REFRESH_UNAVAILABLE);
      expect(store.getState().auth.user).toEqual(user);
      expect(purgePersisted).not.toHaveBeenCalled();
    }
  });

  it('boot with a persisted user gets an ID token before marking auth initialised', async () => {
    const { store } = makeStore({ user }, vi.fn(async () => okSession()) as unknown as typeof fetch);
    await store.dispatch(initialiseSession());
    expect(store.getState().auth).toMatchObject({ user, idToken: customerToken, initialised: true });
  });

  it('boot with a refused cookie signs out locally', async () => {
    const fetchFn = vi.fn(async () => new Response('{}', { status: 401 }));
    const { store, purgePersisted } = makeStore({ user }, fetchFn as unknown as typeof fetch);
    await store.dispatch(initialiseSession());
    expect(store.getState().auth).toEqual({
      user: null,
      idToken: null,
      expiresAt: null,
      initialised: true,
      signedOutHere: true,
    });
    expect(purgePersisted).toHaveBeenCalled();
    expect(fetchFn).toHaveBeenCalledTimes(1);
  });

  it('boot offline keeps the user (the first call refreshes again)', async () => {
    const { store } = makeStore(
      { user },
      vi.fn(async () => Promise.reject(new TypeError('offline'))) as unknown as typeof fetch,
    );
    await store.dispatch(initialiseSession());
    expect(store.getState().auth).toMatchObject({ user, idToken: null, initialised: true });
  });

  it('boot without a user makes no call', async () => {
    const fetchFn = vi.fn();
    const { store } = makeStore({}, fetchFn as unknown as typeof fetch);
    await store.dispatch(initialiseSession());
    expect(fetchFn).not.toHaveBeenCalled();
    expect(store.getState().auth.initialised).toBe(true);
  });

  it('signOut calls the server, clears and purges', async () => {
    const fetchFn = vi.fn(async () => new Response(null, { status: 204 }));
    const { store, purgePersisted } = makeStore(
      { user, idToken: customerToken, initialised: true },
      fetchFn as unknown as typeof fetch,
    );
    await store.dispatch(signOut());
    expect(fetchFn).toHaveBeenCalledWith('/api/v1/auth/sign-out', expect.anything());
    expect(store.getState().auth.user).toBeNull();
    expect(purgePersisted).toHaveBeenCalled();
  });
});

describe('session boot failures that are not a lost session', () => {
  it('keeps the user on a 5xx or an app-check rejection (retrying app check once)', async () => {
    const appCheckRejected = () =>
      new Response(JSON.stringify({ error: 'x', code: 'APP_CHECK_INVALID' }), { status: 401 });
    const fetchFn = vi.fn().mockResolvedValueOnce(appCheckRejected()).mockResolvedValueOnce(appCheckRejected());
    const { store, purgePersisted } = makeStore({ user }, fetchFn as unknown as typeof fetch);
    await store.dispatch(initialiseSession());
    expect(fetchFn).toHaveBeenCalledTimes(2);
    expect(purgePersisted).not.toHaveBeenCalled();
    expect(store.getState().auth).toMatchObject({ user, idToken: null, initialised: true });

    const down = makeStore({ user }, vi.fn(async () => new Response('{}', { status: 503 })) as unknown as typeof fetch);
    await down.store.dispatch(initialiseSession());
    expect(down.store.getState().auth.user).toEqual(user);
  });
});

describe('a sign-out while a refresh is in flight', () => {
  /** A fetch whose refresh answers only when told; the sign-out answers at once. */
  function heldRefresh() {
    let answer!: () => void;
    const refreshAnswered = new Promise<void>((resolve) => (answer = resolve));
    const fetchFn = vi.fn(async (url: string) =>
      url.endsWith('/auth/refresh') ? refreshAnswered.then(() => okSession()) : new Response(null, { status: 204 }),
    );
    return { fetchFn: fetchFn as unknown as typeof fetch, calls: fetchFn, answer };
  }
  const urls = (calls: { mock: { calls: unknown[][] } }) => calls.mock.calls.map(([url]) => url);

  it('Logout during the boot restore wins: the late session is dropped, signed out once', async () => {
    const { fetchFn, calls, answer } = heldRefresh();
    const { store, purgePersisted } = makeStore({ user }, fetchFn);
    const boot = store.dispatch(initialiseSession());
    await vi.waitFor(() => expect(urls(calls)).toEqual(['/api/v1/auth/refresh']));
    await store.dispatch(signOut());
    answer();
    await boot;
    expect(store.getState().auth).toEqual({
      user: null,
      idToken: null,
      expiresAt: null,
      initialised: true,
      signedOutHere: true,
    });
    expect(urls(calls)).toEqual(['/api/v1/auth/refresh', '/api/v1/auth/sign-out']);
    expect(purgePersisted).toHaveBeenCalledTimes(1);
  });

  it('a refresh from before the sign-out answers null, and a later refresh does not join it', async () => {
    const { fetchFn, calls, answer } = heldRefresh();
    const { store } = makeStore({ user, idToken: customerToken, initialised: true }, fetchFn);
    const early = store.dispatch(refreshSession()).unwrap();
    await vi.waitFor(() => expect(urls(calls)).toEqual(['/api/v1/auth/refresh']));
    await store.dispatch(signOut());
    const later = store.dispatch(refreshSession()).unwrap();
    answer();
    expect(await early).toBeNull();
    // The later refresh asked for itself (the test's one held answer serves both calls).
    expect(urls(calls)).toEqual(['/api/v1/auth/refresh', '/api/v1/auth/sign-out', '/api/v1/auth/refresh']);
    expect(await later).toBe(customerToken);
  });
});
