/**
 * The lazy route modules each deep link renders first (paths relative to apps/web, routes of
 * src/app/routes.tsx). Read by the build, which writes the modulepreload list the API adds to
 * index.html (vite.config.ts), and by the JavaScript budgets (bench/budgets), so both measure
 * and preload the same thing.
 */
export const ROUTE_MODULES: Record<string, readonly string[]> = {
  '/login': ['src/features/auth/login-page.tsx'],
  '/register': ['src/features/auth/register-page.tsx'],
  '/forgot-password': ['src/features/auth/forgot-password-page.tsx'],
  '/bookings': ['src/app/app-layout.tsx', 'src/app/bookings-route.tsx'],
  '/create-booking': ['src/app/app-layout.tsx', 'src/features/booking-wizard/create-booking-page.tsx'],
};
