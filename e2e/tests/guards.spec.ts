import { expect, test } from '@playwright/test';
import { BRAND } from '../helpers/app';

// Spec §2: where each protected route sends a guest.
const GUEST_REDIRECTS: [string, string][] = [
  ['/', '/register'],
  ['/bookings', '/register'],
  ['/packages', '/login'],
  ['/create-booking', '/login'],
  ['/success', '/login'],
  ['/error', '/login'],
  ['/expired', '/login'],
];

for (const [from, to] of GUEST_REDIRECTS) {
  test(`a guest opening ${from} is sent to ${to}`, async ({ page }) => {
    await page.goto(from);
    await expect(page).toHaveURL(new RegExp(`${to}$`));
    await expect(page.getByRole('banner').getByText('PHOTOS WITH SANTA', { exact: true })).toBeVisible();
  });
}

test('public-only pages open for a guest, with the page title', async ({ page }) => {
  for (const [path, label] of [
    ['/login', 'Login'],
    ['/register', 'Register'],
    ['/forgot-password', 'Forgot Password'],
  ] as const) {
    await page.goto(path);
    await expect(page).toHaveURL(new RegExp(`${path}$`));
    await expect(page).toHaveTitle(`${label} | ${BRAND}`);
  }
});

test('/verify is open to a guest', async ({ page }) => {
  await page.goto('/verify?mode=verifyEmail&oobCode=abc');
  await expect(page).toHaveURL(/\/verify\?/);
  await expect(page.getByRole('banner').getByText('PHOTOS WITH SANTA', { exact: true })).toBeVisible();
});

test('an unknown path shows the unknown-path page', async ({ page }) => {
  const response = await page.goto('/no/such/page');
  expect(response?.status()).toBe(200);
  await expect(page.getByRole('heading', { name: "We can't find that page" })).toBeVisible();
  await expect(page).toHaveTitle(`Page Not Found | ${BRAND}`);
  // A guest has no bookings: the page offers the way in, not "Go to my bookings".
  await expect(page.getByRole('link', { name: 'Go to my bookings' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Sign in to book' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('unknown API paths answer JSON 404, not the app', async ({ request }) => {
  const response = await request.get('/api/v1/no-such-thing');
  expect(response.status()).toBe(404);
  expect((await response.json()).code).toBe('NOT_FOUND');
});
