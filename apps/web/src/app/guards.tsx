import { lazy, Suspense, useMemo } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { FullPageSpinner } from '../components/ui/spinner';
import { AuthLayout } from '../features/auth/auth-layout';
import { useRouteHandle, useDocumentTitle } from './document-title';
import { useAppSelector } from './hooks';

// Only unverified users see it, so it (and the toast library it uses) loads on demand.
const VerifyEmailPage = lazy(() =>
  import('../features/auth/verify-email-page').then((m) => ({ default: m.VerifyEmailPage })),
);

function VerifyEmailScreen() {
  useDocumentTitle('Verify Email');
  return (
    <AuthLayout>
      <Suspense fallback={<FullPageSpinner />}>
        <VerifyEmailPage />
      </Suspense>
    </AuthLayout>
  );
}

/**
 * Protected routes (spec §2, §6): guests go to the route's own redirect (/register or
 * /login), signed-in but unverified users see only the verification screen. A verified user
 * restored from storage sees the page while the session is checked (its data waits for it); a
 * refused session then signs out and lands here as a guest.
 */
export function RequireAuth() {
  const { user, initialised, signedOutHere } = useAppSelector((state) => state.auth);
  const location = useLocation();
  // A session that ended on this page lands on /login wherever it ended (issue 37 item 10);
  // a guest arriving goes where the route sends guests (spec §2).
  const routeRedirect = useRouteHandle('guestRedirect');
  const guestRedirect = signedOutHere ? '/login' : (routeRedirect ?? '/login');
  // Stable between renders: <Navigate> navigates again whenever its `state` changes, and a
  // fresh object each render would restart the redirect while a lazy page is loading.
  const redirectState = useMemo(() => ({ from: location }), [location]);
  if (!initialised && !user?.emailVerified) return <FullPageSpinner />;
  if (!user) return <Navigate to={guestRedirect} replace state={redirectState} />;
  if (!user.emailVerified) return <VerifyEmailScreen />;
  return <Outlet />;
}

/** /login, /register, /forgot-password: a signed-in user is sent to `/` (spec §2). */
export function PublicOnly() {
  const { user, initialised } = useAppSelector((state) => state.auth);
  if (!initialised) return <FullPageSpinner />;
  if (user) return <Navigate to="/" replace />;
  return <Outlet />;
}
