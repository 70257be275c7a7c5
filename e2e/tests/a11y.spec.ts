import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { signInThroughApi } from '../helpers/app';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const PAGES = ['/login', '/register', '/forgot-password', '/verify', '/terms_and_conditions', '/no-such-page'];

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
]) {
  for (const path of PAGES) {
    test(`no axe violations on ${path} at ${viewport.width} px`, async ({ page }) => {
      await page.setViewportSize(viewport);
      await page.goto(path);
      await expect(page.locator('h1')).toBeVisible();
      const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
      expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual(
        [],
      );
    });
  }
}

test.describe('signed-in layout', () => {
  test.beforeEach(async ({ page }) => {
    await signInThroughApi(page);
  });

  // Only the shell's own parts: the pages inside belong to their features' tests.
  test('sidebar and help panel have no axe violations at 1280 px', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/bookings');
    await expect(page.getByTestId('sidebar')).toBeVisible();
    const sidebar = await new AxeBuilder({ page })
      .include('[data-testid="sidebar"]')
      .include('[data-testid="help-launcher"]')
      .withTags(WCAG_22_AA)
      .analyze();
    expect(sidebar.violations.map((v) => v.id)).toEqual([]);
    await page.getByTestId('help-launcher').click();
    await expect(page.getByRole('dialog')).toBeVisible();
    const help = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(WCAG_22_AA).analyze();
    expect(help.violations.map((v) => v.id)).toEqual([]);
  });

  test('bottom tab bar and profile menu have no axe violations at 390 px', async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto('/bookings');
    const tabs = page.getByTestId('bottom-tab-bar');
    await expect(tabs).toBeVisible();
    const bar = await new AxeBuilder({ page }).include('[data-testid="bottom-tab-bar"]').withTags(WCAG_22_AA).analyze();
    expect(bar.violations.map((v) => v.id)).toEqual([]);
    await tabs.getByRole('button', { name: 'Profile' }).click();
    await expect(page.getByRole('menu')).toBeVisible();
    const menu = await new AxeBuilder({ page }).include('[role="menu"]').withTags(WCAG_22_AA).analyze();
    expect(menu.violations.map((v) => v.id)).toEqual([]);
  });

  test('the layout works by keyboard: skip link, sidebar toggle, help panel', async ({ page }) => {
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/bookings');
    await expect(page.getByTestId('sidebar')).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('link', { name: 'Skip to content' })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(page.getByRole('button', { name: 'Collapse sidebar' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page.getByTestId('sidebar')).toHaveAttribute('data-collapsed', 'true');
    await page.getByTestId('help-launcher').focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('dialog')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByRole('dialog')).toHaveCount(0);
    await expect(page.getByTestId('help-launcher')).toBeFocused();
  });
});
