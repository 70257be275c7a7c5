import { expect, test, type Page } from '@playwright/test';
import { logInThroughForm } from '../helpers/accounts';
import { DEMO_PASSWORD, SCREENSHOT_DIR } from '../helpers/app';
import { expectAccessible } from '../helpers/purchase';
import { signInFreshCustomer } from '../helpers/wizard';

/**
 * Issue 37 item 10, at 390 and 1280 px: logout lands in one place; a staff account is refused once, with the way to
 * /staff.
 */
for (const viewport of [
  { name: 'wide', width: 1280, height: 800 },
  { name: 'narrow', width: 390, height: 844 },
]) {
  const logout = async (page: Page) => {
    if (viewport.width > 800) return page.getByTestId('sidebar').getByRole('button', { name: 'Logout' }).click();
    await page.getByTestId('bottom-tab-bar').getByRole('button', { name: 'Profile' }).click();
    await page.getByRole('menu').getByRole('menuitem', { name: 'Logout' }).click();
  };

  test(`${viewport.name}: logout lands on /login from My Bookings and from the wizard`, async ({ page, baseURL }) => {
    await page.setViewportSize(viewport);
    const family = await signInFreshCustomer(page, baseURL!, `logout-${viewport.name}`);
    for (const from of ['/bookings', '/create-booking']) {
      await page.goto(from);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(
        from === '/bookings' ? 'My Bookings' : 'Create Booking',
        { timeout: 20_000 },
      );
      await logout(page);
      await expect(page).toHaveURL(/\/login$/);
      await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
      await logInThroughForm(page, family.email, family.password);
      await expect(page).not.toHaveURL(/\/login$/, { timeout: 20_000 });
    }
  });

  test(`${viewport.name}: a staff account is told once, with a link to the staff app`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/login');
    await logInThroughForm(page, 'elf@kringle.test', DEMO_PASSWORD);
    const alert = page.getByRole('alert').filter({ hasText: 'Not Authorized to login' });
    await expect(alert).toBeVisible();
    await expect(alert.getByRole('link', { name: 'staff app' })).toHaveAttribute('href', '/staff');
    // Once: no toast saying it again over the form.
    await page.waitForTimeout(500);
    await expect(page.getByText('Not Authorized to login')).toHaveCount(1);
    await expectAccessible(page, `staff refused at ${viewport.width}`);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-two/${viewport.width}-staff-refused.png` });
    await alert.getByRole('link', { name: 'staff app' }).click();
    await expect(page.getByRole('heading', { name: /staff/ })).toBeVisible({ timeout: 20_000 });
  });
}
