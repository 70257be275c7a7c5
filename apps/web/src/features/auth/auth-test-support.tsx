import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { vi } from 'vitest';
import type { User } from '@kringle/contracts/accounts';
import { api } from '../../lib/api';
import { testBaseQueryDeps } from '../../lib/test-base-query';
import type { BaseQueryExtra } from '../../lib/base-query';
import { authReducer, type AuthState } from './auth-slice';
import type { AuthExtra } from './session';

export const testUser: User = {
  id: '7d9a4a8e-4a8e-4a8e-8a8e-4a8e4a8e4a8e',
  email: 'holly@example.com',
  emailVerified: false,
  firstName: 'Holly',
  lastName: 'Winters',
  displayName: 'Holly Winters',
  phone: null,
  sms: { reminders: false },
  preferredLocationId: null,
  createdAt: '2026-11-01T00:00:00.000Z',
};

const b64 = (o: object) => btoa(JSON.stringify(o)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
const fakeJwt = (claims: object) => `${b64({ alg: 'ES256' })}.${b64(claims)}.sig`;
export const customerToken = fakeJwt({ sub: testUser.id, dashboard_user: false });
export const staffToken = fakeJwt({ sub: testUser.id, dashboard_user: true });

export const json = (status: number, body: unknown) =>
  new Response(body === null ? null : JSON.stringify(body), {
    status,
    headers: { 'Content-Type': 'application/json' },
  });
export const apiError = (status: number, code: string, error: string, details?: { path: string; message: string }[]) =>
  json(status, { error, code, ...(details ? { details } : {}) });
export const session = (user: User = testUser, idToken = customerToken) =>
  json(200, { idToken, expiresAt: '2099-01-01T00:00:00.000Z', user });

type Handler = (body: unknown, init: RequestInit) => Response | Promise<Response>;

/**
 * A fake API: `METHOD /path` → handler. Every call is recorded; an unknown call fails the
 * test loudly rather than hanging. A handler may return a never-settling promise to hold a form busy.
 */
export function fakeApi(handlers: Record<string, Handler>) {
  const calls: { key: string; body: unknown; headers: Record<string, string> }[] = [];
  const fetchFn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    const key = `${init.method ?? 'GET'} ${url.pathname.replace(/^\/api\/v1/, '')}`;
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as unknown) : undefined;
    calls.push({ key, body, headers: (init.headers ?? {}) as Record<string, string> });
    const handler = handlers[key];
    if (!handler) throw new Error(`unexpected call ${key}`);
    return handler(body, init);
  });
  return {
    fetchFn: fetchFn as unknown as typeof fetch,
    calls,
    called: (key: string) => calls.filter((c) => c.key === key),
  };
}

function makeAuthStore(auth: Partial<AuthState>, fetchFn: typeof fetch) {
  const purgePersisted = vi.fn(async () => {});
  const extra: AuthExtra & BaseQueryExtra = {
    auth: { apiBaseUrl: '/api/v1', fetchFn, getAppCheckToken: async () => 'app-check', purgePersisted },
    baseQuery: testBaseQueryDeps(fetchFn, {
      baseUrl: '/api/v1',
      selectAuth: (state) => (state as { auth: AuthState }).auth,
      refreshIdToken: async () => null,
      getAppCheckToken: async () => 'app-check',
      notifyError: vi.fn(),
    }),
  };
  const store = configureStore({
    reducer: combineReducers({ auth: authReducer, [api.reducerPath]: api.reducer }),
    preloadedState: { auth: { user: null, idToken: null, expiresAt: null, initialised: true, ...auth } },
    middleware: (getDefault) => getDefault({ thunk: { extraArgument: extra } }).concat(api.middleware),
  });
  return { store, purgePersisted, extra };
}

/** Renders `element` at `path` with stub pages for where auth screens lead. */
export function renderAuthPage(
  element: ReactElement,
  {
    path = '/',
    auth = {},
    fetchFn,
    state,
  }: { path?: string; auth?: Partial<AuthState>; fetchFn: typeof fetch; state?: unknown },
) {
  const { store, purgePersisted, extra } = makeAuthStore(auth, fetchFn);
  const route = path.split('?')[0]!;
  const router = createMemoryRouter(
    [
      { path: route, element },
      ...['/login', '/register', '/forgot-password', '/bookings', '/terms_and_conditions']
        .filter((p) => p !== route)
        .map((p) => ({ path: p, element: <h1>{`stub ${p}`}</h1> })),
    ],
    { initialEntries: [state === undefined ? path : { pathname: path, state }] },
  );
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  return { store, router, purgePersisted, extra };
}

export const recordedEvents = () => (window.__kringleAnalytics ?? []).map((e) => e.event);
