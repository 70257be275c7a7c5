import { expect as baseExpect, test, type Page } from '@playwright/test';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../helpers/app';
import { analyticsEvents, expectNoAxeViolations, logInThroughForm, NARROW, shot, WIDE } from '../helpers/accounts';

// Journeys wait on the server (app check, argon2, the mail job): give them room on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });
test.beforeEach(() => test.slow());

const UNVERIFIED_EMAIL = 'new@kringle.test';
const STAFF_EMAIL = 'elf@kringle.test';
const storedState = (page: Page) => page.evaluate(() => window.localStorage.getItem('persist:kringle') ?? '');

test('an unverified customer sees only the verify screen, and Back to login signs out', async ({ page }) => {
  await page.goto('/login');
  await logInThroughForm(page, UNVERIFIED_EMAIL, DEMO_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
  for (const path of ['/', '/bookings', '/packages', '/create-booking', '/success', '/expired']) {
    await page.goto(path);
    await expect(page.getByRole('heading', { name: 'Verify your email address' }), path).toBeVisible();
    await expect(page.getByTestId('sidebar')).toHaveCount(0);
    await expect(page.getByTestId('bottom-tab-bar')).toHaveCount(0);
  }
  await page.setViewportSize(NARROW);
  await expectNoAxeViolations(page, 'verify screen (narrow)');
  await page.getByRole('link', { name: 'Back to login' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  expect(await storedState(page)).not.toContain(UNVERIFIED_EMAIL);
  await page.goto('/bookings');
  await expect(page).toHaveURL(/\/register$/);
});

test("a staff account is refused: signed out, state purged, 'Not Authorized to login'", async ({ page }) => {
  await page.goto('/login');
  await logInThroughForm(page, STAFF_EMAIL, DEMO_PASSWORD);
  await expect(page.getByRole('alert').filter({ hasText: 'Not Authorized to login' })).toBeVisible();
  // Said once (issue 37 item 10): spec §8's message on the form, with the way to the staff app; no toast as well.
  await expect(page.getByRole('alert').getByRole('link', { name: 'staff app' })).toHaveAttribute('href', '/staff');
  await expect(page.locator('[data-sonner-toast]').filter({ hasText: 'Not Authorized to login' })).toHaveCount(0);
  await expect(page).toHaveURL(/\/login$/);
  expect(await storedState(page)).not.toContain(STAFF_EMAIL);
  await expectNoAxeViolations(page, '/login staff refused');
  await shot(page, 'login-staff-refused');
  // No session survives: the refresh cookie was revoked.
  await page.reload();
  await page.goto('/bookings');
  await expect(page).toHaveURL(/\/register$/);
  expect(await analyticsEvents(page)).not.toContain('login');
});

test('an expired ID token is refreshed once, transparently, and the call retried', async ({ page }) => {
  await page.goto('/login');
  await logInThroughForm(page, UNVERIFIED_EMAIL, DEMO_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();

  const meAuthHeaders: string[] = [];
  let refreshes = 0;
  page.on('request', (request) => {
    if (request.url().endsWith('/api/v1/auth/refresh')) refreshes += 1;
  });
  // The first /user/me answers as the API does for an expired ID token.
  let answered401 = false;
  await page.route('**/api/v1/user/me', async (route) => {
    meAuthHeaders.push(route.request().headers().authorization ?? '');
    if (!answered401) {
      answered401 = true;
      await route.fulfill({
        status: 401,
        contentType: 'application/json',
        body: JSON.stringify({ error: 'Your session has ended. Please sign in again.', code: 'UNAUTHENTICATED' }),
      });
    } else await route.continue();
  });

  await page.getByRole('button', { name: 'Verify Email address' }).click();
  // The account is still unverified, so the page says so instead of reloading (issue 17).
  await expect(page.getByText(/Not verified yet: open the link we sent to/)).toBeVisible();
  // The button's own refresh, then exactly one more for the 401; the retry carries the new token.
  expect(meAuthHeaders).toHaveLength(2);
  expect(meAuthHeaders[1]).not.toBe(meAuthHeaders[0]);
  expect(refreshes).toBe(2);
  // Still signed in: no error shown, no trip to /login, still on the same screen.
  await expect(page.locator('[data-sonner-toast][data-type="error"]')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
});

test('a refresh refused for a moment (429, or the server down) keeps the family signed in', async ({ page }) => {
  await page.setViewportSize(NARROW);
  await page.goto('/login');
  await logInThroughForm(page, DEMO_EMAIL, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/bookings$/);
  const urls: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) urls.push(frame.url());
  });
  // Every refresh answers as a busy server would (API.md: 429 with Retry-After) until the route is lifted.
  let refused = 0;
  await page.route('**/api/v1/auth/refresh', async (route) => {
    refused += 1;
    await route.fulfill({
      status: 429,
      headers: { 'Retry-After': '30' },
      contentType: 'application/json',
      body: JSON.stringify({ error: 'Too many attempts. Try again in 30 seconds.', code: 'RATE_LIMITED' }),
    });
  });
  // A reload has no ID token: the boot's refresh and the bookings call's both meet the 429.
  await page.reload();
  await expect(page.getByText('We could not load your bookings just now.')).toBeVisible();
  await expect(
    page.locator('[data-sonner-toast]').filter({ hasText: 'We could not renew your sign-in just now.' }),
  ).toBeVisible();
  expect(refused).toBeGreaterThanOrEqual(2);
  expect(urls.filter((u) => /\/(login|register)$/.test(u))).toEqual([]);
  expect(await storedState(page)).toContain(DEMO_EMAIL);
  await shot(page, 'bookings-refresh-unavailable');

  await page.unroute('**/api/v1/auth/refresh');
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByText('We could not load your bookings just now.')).toHaveCount(0);
  await expect(page.getByRole('heading', { name: 'My Bookings' })).toBeVisible();
  await expect(page).toHaveURL(/\/bookings$/);
});

test('a reload keeps the session without flashing the login page; logout purges', async ({ page }) => {
  await page.setViewportSize(WIDE);
  await page.goto('/login');
  await logInThroughForm(page, DEMO_EMAIL, DEMO_PASSWORD);
  await expect(page).toHaveURL(/\/bookings$/);
  expect(await analyticsEvents(page)).toContain('login');

  // Record every heading ever shown during the reload, not just the last one.
  await page.addInitScript(() => {
    const seen: string[] = [];
    (window as unknown as { __headings: string[] }).__headings = seen;
    new MutationObserver(() => {
      for (const h of Array.from(document.querySelectorAll('h1')))
        if (!seen.includes(h.textContent ?? '')) seen.push(h.textContent ?? '');
    }).observe(document, { childList: true, subtree: true });
  });
  const urls: string[] = [];
  page.on('framenavigated', (frame) => {
    if (frame === page.mainFrame()) urls.push(frame.url());
  });
  await page.reload();
  await expect(page.getByRole('heading', { name: 'My Bookings' })).toBeVisible();
  const headings = await page.evaluate(() => (window as unknown as { __headings: string[] }).__headings);
  expect(headings).not.toContain('Log in');
  expect(headings).not.toContain('Create your account');
  expect(urls.filter((u) => /\/(login|register)$/.test(u))).toEqual([]);

  await page.getByTestId('sidebar').getByRole('button', { name: 'Logout' }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect(await storedState(page)).not.toContain(DEMO_EMAIL);
  expect(await analyticsEvents(page)).toContain('logout');
});
