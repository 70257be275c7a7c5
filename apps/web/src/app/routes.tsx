import type { ComponentType } from 'react';
import { Navigate, Outlet, type RouteObject, ScrollRestoration } from 'react-router';
import { FullPageSpinner } from '../components/ui/spinner';
import { AuthLayout } from '../features/auth/auth-layout';
import { NotFoundPage } from './layout/not-found-page';
import { BRAND_NAME } from '../lib/env';
import { DocumentTitle, type RouteHandle } from './document-title';
import { PublicOnly, RequireAuth } from './guards';
import { usePaymentPageDocument } from './payment-page-entry';
import { RestoreSessionAfterPaint } from './session-restore';

const h = (handle: RouteHandle) => handle;

/**
 * Pages load on demand: a family on a phone downloads the login form without the booking
 * wizard, Stripe or the bookings list. The signed-in layout (sidebar, tab bar, help panel
 * and their Radix menus and dialogs) loads with the first protected page; guards, the auth
 * layout and the verify-email screen stay in the main bundle. The front-end budgets
 * (bench/budgets) hold these splits in place.
 */
function lazyPage<M>(load: () => Promise<M>, pick: (module: M) => ComponentType) {
  return async () => ({ Component: pick(await load()) });
}

function Root() {
  const reloading = usePaymentPageDocument();
  return (
    <>
      <DocumentTitle />
      <RestoreSessionAfterPaint />
      {/* A new page opens at its top (it kept the last page's scroll); Back returns to where it was. */}
      <ScrollRestoration />
      {reloading ? <FullPageSpinner /> : <Outlet />}
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
    HydrateFallback: FullPageSpinner,
    children: [
      {
        element: <RequireAuth />,
        children: [
          {
            lazy: lazyPage(
              () => import('./app-layout'),
              (m) => m.AppLayout,
            ),
            children: [
              {
                index: true,
                element: <Navigate to="/bookings" replace />,
                handle: h({ title: 'My Bookings', guestRedirect: '/register' }),
              },
              {
                path: 'bookings',
                lazy: lazyPage(
                  () => import('./bookings-route'),
                  (m) => m.BookingsRoute,
                ),
                handle: h({ title: 'My Bookings', guestRedirect: '/register' }),
              },
              {
                // A payment page (more photos by card): entered as a document of its own (payment-page-entry.ts).
                path: 'bookings/:id/photos',
                lazy: lazyPage(
                  () => import('./bookings-route'),
                  (m) => m.BookingsRoute,
                ),
                handle: h({ title: 'Photos', guestRedirect: '/login' }),
              },
              {
                path: 'packages',
                lazy: lazyPage(
                  () => import('../features/packages/packages-page'),
                  (m) => m.PackagesPage,
                ),
                handle: h({ title: 'View Packages', guestRedirect: '/login' }),
              },
              {
                path: 'create-booking',
                lazy: lazyPage(
                  () => import('../features/booking-wizard/create-booking-page'),
                  (m) => m.CreateBookingPage,
                ),
                handle: h({ title: 'Create Booking', guestRedirect: '/login' }),
              },
              {
                path: 'queue/:locationId',
                lazy: lazyPage(
                  () => import('../features/booking-wizard/queue/queue-page'),
                  (m) => m.QueuePage,
                ),
                handle: h({ title: 'Waiting Room', guestRedirect: '/login' }),
              },
              {
                path: 'gift',
                lazy: lazyPage(
                  () => import('../features/gift-vouchers/gift-page'),
                  (m) => m.GiftPage,
                ),
                handle: h({ title: 'Give a Santa visit', guestRedirect: '/login' }),
              },
              {
                // The certificate's QR and the gift e-mail's link (#XXXX-XXXX-XXXX): most who follow it are new here.
                path: 'gift/redeem',
                lazy: lazyPage(
                  () => import('../features/gift-vouchers/redeem-page'),
                  (m) => m.RedeemPage,
                ),
                handle: h({ title: 'Add a gift voucher', guestRedirect: '/register' }),
              },
              {
                path: 'success',
                lazy: lazyPage(
                  () => import('./payment-result-routes'),
                  (m) => m.SuccessRoute,
                ),
                handle: h({ title: 'Payment Successful', guestRedirect: '/login' }),
              },
              {
                path: 'error',
                lazy: lazyPage(
                  () => import('./payment-result-routes'),
                  (m) => m.ErrorRoute,
                ),
                handle: h({ title: 'Payment Failed', guestRedirect: '/login' }),
              },
              {
                path: 'expired',
                lazy: lazyPage(
                  () => import('../features/booking-wizard/hold/expired-page'),
                  (m) => m.ReservationExpiredPage,
                ),
                handle: h({ title: 'Reservation Expired', guestRedirect: '/login' }),
              },
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
              {
                path: 'login',
                lazy: lazyPage(
                  () => import('../features/auth/login-page'),
                  (m) => m.LoginPage,
                ),
                handle: h({ title: 'Login' }),
              },
              {
                path: 'register',
                lazy: lazyPage(
                  () => import('../features/auth/register-page'),
                  (m) => m.RegisterPage,
                ),
                handle: h({ title: 'Register' }),
              },
              {
                path: 'forgot-password',
                lazy: lazyPage(
                  () => import('../features/auth/forgot-password-page'),
                  (m) => m.ForgotPasswordPage,
                ),
                handle: h({ title: 'Forgot Password' }),
              },
            ],
          },
        ],
      },
      {
        element: <AuthLayout />,
        children: [
          {
            path: 'verify',
            lazy: lazyPage(
              () => import('../features/auth/verify-action-page'),
              (m) => m.VerifyActionPage,
            ),
            handle: h({ title: 'Verify' }),
          },
        ],
      },
      {
        path: 'terms_and_conditions',
        lazy: lazyPage(
          () => import('../features/terms/terms-page'),
          (m) =>
            function Terms() {
              return <m.TermsPage brandName={BRAND_NAME} />;
            },
        ),
        handle: h({ title: 'Terms and Conditions' }),
      },
      {
        path: 'privacy',
        lazy: lazyPage(
          () => import('../features/privacy/privacy-page'),
          (m) =>
            function Privacy() {
              return <m.PrivacyPage brandName={BRAND_NAME} />;
            },
        ),
        handle: h({ title: 'Privacy Policy' }),
      },
      {
        path: 'drop-report/:locationId',
        lazy: lazyPage(
          () => import('../features/booking-wizard/queue/drop-report-page'),
          (m) =>
            function DropReport() {
              return <m.DropReportPage brandName={BRAND_NAME} />;
            },
        ),
        handle: h({ title: 'How Bookings Opened' }),
      },
      { path: '*', element: <NotFoundPage brandName={BRAND_NAME} />, handle: h({ title: 'Page Not Found' }) },
    ],
  },
];
