import { Provider } from 'react-redux';
import { createBrowserRouter } from 'react-router';
import { RouterProvider } from 'react-router/dom';
import { PersistGate } from 'redux-persist/integration/react';
import { DeferredToaster } from '../components/ui/deferred-toaster';
import { FullPageSpinner } from '../components/ui/spinner';
import { initialiseSession } from '../features/auth/session';
import { TOAST_DURATION_MS, TOAST_OFFSET_PX } from '../lib/env';
import { routes } from './routes';
import { persistor, store } from './store';

/**
 * Creating the data router matches the URL and starts loading the page's lazy chunk; main.tsx
 * does it in a task of its own (decision 0013).
 */
export const createAppRouter = () => createBrowserRouter(routes);
export type AppRouter = ReturnType<typeof createAppRouter>;

/**
 * Restores the session before the gate lifts, so a reload never flashes the login page. A
 * verified family's page renders first instead (RequireAuth), its calls waiting for the session
 * (spec §7): the refresh needs an app-check token first, three round trips a phone would
 * otherwise spend on a spinner (decision 0034). Their restore starts once the page has painted
 * (RestoreSessionAfterPaint).
 */
const boot = async () => {
  if (!store.getState().auth.user?.emailVerified) await store.dispatch(initialiseSession());
};

export function App({ router }: { router: AppRouter }) {
  return (
    <Provider store={store}>
      <PersistGate loading={<FullPageSpinner />} persistor={persistor} onBeforeLift={boot}>
        <RouterProvider router={router} />
      </PersistGate>
      {/* Spec §9: toasts last 5 s, 50 px from the top; at the right on wide screens, clear of the page's heading (issue
         37 item 10). */}
      <DeferredToaster
        position="top-right"
        duration={TOAST_DURATION_MS}
        offset={TOAST_OFFSET_PX}
        mobileOffset={TOAST_OFFSET_PX}
        richColors
        closeButton
      />
    </Provider>
  );
}
