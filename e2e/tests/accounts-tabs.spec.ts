import { expect as baseExpect, test, type Page } from '@playwright/test';
import { DEMO_EMAIL, DEMO_PASSWORD } from '../helpers/app';
import { expectNoAxeViolations, logInThroughForm, NARROW, shot, WIDE } from '../helpers/accounts';

// Issue 14: several tabs of one browser refresh with one cookie at the same moment.
const expect = baseExpect.configure({ timeout: 20_000 });
test.beforeEach(() => test.slow());

const storedState = (page: Page) => page.evaluate(() => window.localStorage.getItem('persist:kringle') ?? '');

test('three tabs opened together stay signed in, survive a reload, and all sign out together', async ({
  page,
  context,
}) => {
  const refreshStatuses: number[] = [];
  context.on('response', (response) => {
    if (response.url().endsWith('/api/v1/auth/refresh')) refreshStatuses.push(response.status());
  });
  await page.setViewportSize(WIDE);
  await page.goto('/login');
  await logInThroughForm(page, DEMO_EMAIL, DEMO_PASSWORD);
  await expect(page.getByRole('button', { name: 'Logout' }).first()).toBeVisible();

  // Two new tabs at the same moment: each boots with the persisted user and refreshes at once.
  const [booking, bookings] = await Promise.all([context.newPage(), context.newPage()]);
  await Promise.all([booking.setViewportSize(WIDE), bookings.setViewportSize(NARROW)]);
  await Promise.all([booking.goto('/create-booking'), bookings.goto('/bookings')]);
  await expect(booking).toHaveURL(/\/create-booking$/);
  await expect(bookings).toHaveURL(/\/bookings$/);
  await expect(bookings.getByRole('heading', { name: 'My Bookings', level: 1 })).toBeVisible();
  await expect(booking.getByRole('button', { name: 'Logout' }).first()).toBeVisible();
  await shot(booking, 'tabs-create-booking');
  await shot(bookings, 'tabs-bookings');
  await expectNoAxeViolations(bookings, '/bookings in the second tab (narrow)');

  // Reloading the first tab refreshes again with the cookie the others converged on.
  await page.reload();
  await expect(page.getByRole('button', { name: 'Logout' }).first()).toBeVisible();
  await expect(page).not.toHaveURL(/\/(login|register)$/);
  await shot(page, 'tabs-first-reloaded');
  // Three boots, but a tab granted the refresh lock after another may take that tab's session
  // instead of calling: at least the first boot and the reload called, and nothing was refused.
  expect(refreshStatuses.length).toBeGreaterThanOrEqual(2);
  expect(refreshStatuses.every((s) => s === 200)).toBe(true);

  // Signing out in one tab signs out every tab and purges what each stored (spec §4).
  await booking.getByRole('button', { name: 'Logout' }).first().click();
  // Every tab lands in one place (issue 37 item 10).
  await expect(booking).toHaveURL(/\/login$/);
  await expect(bookings).toHaveURL(/\/login$/);
  await expect(page).toHaveURL(/\/login$/);
  for (const tab of [page, booking, bookings]) expect(await storedState(tab)).not.toContain(DEMO_EMAIL);
  await shot(bookings, 'tabs-signed-out-elsewhere');
  await expectNoAxeViolations(bookings, 'after sign-out in another tab');
  // The session is gone for real: a reload does not bring it back.
  await page.goto('/bookings');
  await expect(page).toHaveURL(/\/register$/);
});
