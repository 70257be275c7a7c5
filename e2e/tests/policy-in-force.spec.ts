import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { SCREENSHOT_DIR, signInThroughApi } from '../helpers/app';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

/**
 * The help panel states the policy the API says is in force (GET /api/v1/common/policy), not
 * numbers built into the app: run with REFUND_CUTOFF_HOURS=72 and it says 72.
 */
test.describe('policy in force', () => {
  test.beforeEach(async ({ page }) => {
    expect(await signInThroughApi(page)).not.toBeNull();
  });

  for (const [name, viewport] of [
    ['wide', { width: 1280, height: 800 }],
    ['narrow', { width: 390, height: 844 }],
  ] as const) {
    test(`the help panel shows the API's numbers (${name})`, async ({ page }) => {
      await page.setViewportSize(viewport);
      // My Bookings may ask for the policy itself (its cards state deadlines) before the help panel
      // opens, and the panel then reuses that answer: listen from the start, not after the load.
      const answer = page.waitForResponse((r) => r.url().endsWith('/api/v1/common/policy'));
      await page.goto('/bookings');
      if (name === 'wide') await page.getByTestId('help-launcher').click();
      else await page.getByTestId('bottom-tab-bar').getByRole('button', { name: 'Help' }).click();
      const served = (await (await answer).json()) as { refundCutoffHours: number; maxUpcomingBookings: number };
      const dialog = page.getByRole('dialog', { name: 'How can we help?' });
      await expect(
        dialog.getByText(`Cancel up to ${served.refundCutoffHours} hours before for a full refund.`, { exact: false }),
      ).toBeVisible();
      await expect(
        dialog.getByText(`You can have up to ${served.maxUpcomingBookings} upcoming bookings at a time.`),
      ).toBeVisible();
      const axe = await new AxeBuilder({ page }).include('[role="dialog"]').withTags(WCAG_22_AA).analyze();
      expect(axe.violations.map((v) => v.id)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}-help-policy.png`, fullPage: true });
    });
  }
});
