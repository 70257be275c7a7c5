import { combineReducers, configureStore } from '@reduxjs/toolkit';
import { render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import type { User } from '@kringle/contracts/accounts';
import { authReducer, type AuthState } from '../features/auth/auth-slice';
import { bookingReducer } from '../features/booking-wizard/state/booking-slice';
import { timerReducer } from '../features/booking-wizard/state/timer-slice';
import { api } from '../lib/api';
import { testBaseQueryDeps } from '../lib/test-base-query';
import { routes } from './routes';

const user: User = {
  id: '7d9a4a8e-4a8e-4a8e-8a8e-4a8e4a8e4a8e',
  email: 'holly@example.com',
  emailVerified: true,
  firstName: 'holly',
  lastName: 'winters',
  displayName: 'Holly Winters',
  phone: null,
  sms: { reminders: false },
  preferredLocationId: null,
  createdAt: '2026-11-01T00:00:00.000Z',
};

/** Renders the real route table at `path` and waits until lazy pages and redirects settle. */
async function renderAt(path: string, auth: Partial<AuthState>) {
  const store = configureStore({
    reducer: combineReducers({
      auth: authReducer,
      booking: bookingReducer,
      timer: timerReducer,
      [api.reducerPath]: api.reducer,
    }),
    preloadedState: { auth: { user: null, idToken: null, expiresAt: null, initialised: true, ...auth } },
    // Pages may call the API (e.g. /verify checks its link): answer everything with a 400.
    middleware: (getDefault) => getDefault({ thunk: { extraArgument: testExtra } }).concat(api.middleware),
  });
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <Provider store={store}>
      <RouterProvider router={router} />
    </Provider>,
  );
  await waitFor(
    () => {
      expect(router.state.initialized).toBe(true);
      expect(router.state.navigation.state).toBe('idle');
      expect(document.querySelector('h1, [role="status"]')).not.toBeNull();
      // Lazy route modules load on first use: on a busy machine that alone can pass waitFor's 1 s.
    },
    { timeout: 5000 },
  );
  return router;
}

const offlineFetch = (async () =>
  new Response(JSON.stringify({ error: 'test', code: 'BAD_REQUEST' }), { status: 400 })) as unknown as typeof fetch;
const testExtra = {
  auth: {
    apiBaseUrl: 'http://test/api/v1',
    fetchFn: offlineFetch,
    getAppCheckToken: async () => null,
    purgePersisted: async () => {},
  },
  baseQuery: testBaseQueryDeps(offlineFetch, {
    selectAuth: (state: unknown) => (state as { auth: AuthState }).auth,
    refreshIdToken: async () => null,
  }),
};

const signedIn = { user, idToken: 'token' };

describe('route guards (spec §2)', () => {
  it.each([
    ['/', '/register'],
    ['/bookings', '/register'],
    ['/packages', '/login'],
    ['/create-booking', '/login'],
    ['/success', '/login'],
    ['/error', '/login'],
    ['/expired', '/login'],
  ])('a guest at %s is sent to %s', async (from, to) => {
    const router = await renderAt(from, {});
    // The redirect runs in an effect, so a spinner may already satisfy renderAt just before it.
    await waitFor(() => expect(router.state.location.pathname).toBe(to), { timeout: 5000 });
  });

  it.each(['/', '/bookings', '/packages', '/create-booking'])(
    'a session that ended at %s lands on /login, one place wherever it ended (issue 37 item 10)',
    async (from) => {
      const router = await renderAt(from, { signedOutHere: true });
      await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 5000 });
    },
  );

  it.each(['/login', '/register', '/forgot-password', '/verify', '/terms_and_conditions'])(
    'a guest may open %s',
    async (path) => {
      const router = await renderAt(path, {});
      expect(router.state.location.pathname).toBe(path);
    },
  );

  it.each(['/login', '/register', '/forgot-password'])(
    'a signed-in user at %s is sent to / and on to /bookings',
    async (path) => {
      const router = await renderAt(path, signedIn);
      await waitFor(() => expect(router.state.location.pathname).toBe('/bookings'), { timeout: 5000 });
      expect(await screen.findByRole('heading', { name: 'My Bookings' })).toBeInTheDocument();
    },
  );

  it('a signed-in user may open every protected page, inside the layout', async () => {
    for (const path of ['/bookings', '/packages', '/create-booking', '/success', '/error', '/expired']) {
      const router = await renderAt(path, signedIn);
      expect(router.state.location.pathname).toBe(path);
      // The signed-in layout is a lazy chunk too: wait for it rather than for the first spinner.
      expect(await screen.findByTestId('sidebar')).toBeInTheDocument();
      expect(screen.getByText('Holly Winters')).toBeInTheDocument();
      expect(screen.getByText('Customer')).toBeInTheDocument();
      document.body.innerHTML = '';
    }
  });

  it('a signed-in but unverified user sees only the verification screen', async () => {
    const router = await renderAt('/packages', { user: { ...user, emailVerified: false }, idToken: 'token' });
    expect(router.state.location.pathname).toBe('/packages');
    expect(await screen.findByRole('heading', { name: 'Verify your email address' })).toBeInTheDocument();
    expect(screen.queryByTestId('sidebar')).toBeNull();
    expect(document.title).toBe('Verify Email | Kringle');
  });

  it('/verify stays open to a signed-in user', async () => {
    const router = await renderAt('/verify?mode=verifyEmail&oobCode=x', signedIn);
    expect(router.state.location.pathname).toBe('/verify');
  });

  it(
    'shows a verified user restored from storage the page while the session is checked (no login flash on ' + 'reload)',
    async () => {
      const router = await renderAt('/bookings', { user, initialised: false });
      expect(router.state.location.pathname).toBe('/bookings');
      expect(await screen.findByRole('heading', { name: 'My Bookings' })).toBeInTheDocument();
    },
  );

  it('waits for auth initialisation for an unverified user instead of redirecting', async () => {
    const router = await renderAt('/bookings', { user: { ...user, emailVerified: false }, initialised: false });
    expect(router.state.location.pathname).toBe('/bookings');
    expect(screen.getByRole('status')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Verify your email address' })).toBeNull();
  });

  it('unknown paths show the unknown-path page, signed in or not', async () => {
    await renderAt('/definitely/not/here', {});
    expect(await screen.findByRole('heading', { name: "We can't find that page" })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Page Not Found | Kringle'));
  });

  it("sets the page title to '{label} | brand'", async () => {
    await renderAt('/packages', signedIn);
    // renderAt settles on the first spinner; the page sets its title once its lazy chunk renders.
    await waitFor(() => expect(document.title).toBe('View Packages | Kringle'), { timeout: 5000 });
  });
});
