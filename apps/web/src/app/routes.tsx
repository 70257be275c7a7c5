import { Navigate, Outlet, type RouteObject } from 'react-router';
import { AuthLayout } from '../features/auth/auth-layout';
import { ForgotPasswordPage } from '../features/auth/forgot-password-page';
import { LoginPage } from '../features/auth/login-page';
import { RegisterPage } from '../features/auth/register-page';
import { VerifyActionPage } from '../features/auth/verify-action-page';
import { CreateBookingPage } from '../features/booking-wizard/create-booking-page';
import { ReservationExpiredPage } from '../features/booking-wizard/expired-page';
import { NotFoundPage } from '../features/layout/not-found-page';
import { PackagesPage } from '../features/packages/packages-page';
import { TermsPage } from '../features/terms/terms-page';
import { BRAND_NAME } from '../lib/env';
import { AppLayout } from './app-layout';
import { BookingsRoute } from './bookings-route';
import { DocumentTitle, type RouteHandle } from './document-title';
import { ErrorRoute, SuccessRoute } from './payment-result-routes';
import { PublicOnly, RequireAuth } from './guards';

const h = (handle: RouteHandle) => handle;

function Root() {
  return (
    <>
      <DocumentTitle />
      <Outlet />
    </>
  );
}

/**
 * The one route table: spec §2, row by row. Each protected route names where a guest goes
 * (`guestRedirect`), so the table is the single source of truth for access.
 */
export const routes: RouteObject[] = [
  {
    element: <Root />,
    children: [
      {
        element: <RequireAuth />,
        children: [
          {
            element: <AppLayout />,
            children: [
              { index: true, element: <Navigate to="/bookings" replace />, handle: h({ title: 'My Bookings', guestRedirect: '/register' }) },
              { path: 'bookings', element: <BookingsRoute />, handle: h({ title: 'My Bookings', guestRedirect: '/register' }) },
              { path: 'packages', element: <PackagesPage />, handle: h({ title: 'View Packages', guestRedirect: '/login' }) },
              { path: 'create-booking', element: <CreateBookingPage />, handle: h({ title: 'Create Booking', guestRedirect: '/login' }) },
              { path: 'success', element: <SuccessRoute />, handle: h({ title: 'Payment Successful', guestRedirect: '/login' }) },
              { path: 'error', element: <ErrorRoute />, handle: h({ title: 'Payment Failed', guestRedirect: '/login' }) },
              { path: 'expired', element: <ReservationExpiredPage />, handle: h({ title: 'Reservation Expired', guestRedirect: '/login' }) },
            ],
          },
        ],
      },
      {
        element: <PublicOnly />,
        children: [
          {
            element: <AuthLayout />,
            children: [
              { path: 'login', element: <LoginPage />, handle: h({ title: 'Login' }) },
              { path: 'register', element: <RegisterPage />, handle: h({ title: 'Register' }) },
              { path: 'forgot-password', element: <ForgotPasswordPage />, handle: h({ title: 'Forgot Password' }) },
            ],
          },
        ],
      },
      {
        element: <AuthLayout />,
        children: [{ path: 'verify', element: <VerifyActionPage />, handle: h({ title: 'Verify' }) }],
      },
      { path: 'terms_and_conditions', element: <TermsPage brandName={BRAND_NAME} />, handle: h({ title: 'Terms and Conditions' }) },
      { path: '*', element: <NotFoundPage brandName={BRAND_NAME} />, handle: h({ title: 'Page Not Found' }) },
    ],
  },
];
