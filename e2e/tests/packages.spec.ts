import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { BRAND, hasHorizontalScroll, SCREENSHOT_DIR, signInThroughApi } from '../helpers/app';
import { recordedEvents } from '../helpers/wizard';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];

for (const viewport of [
  { name: 'wide', width: 1280, height: 800 },
  { name: 'narrow', width: 390, height: 844 },
] as const) {
  test(
    `View Packages lists packages and add-ons with prices, and Book now starts the wizard ` + `(${viewport.width} px)`,
    async ({ page }) => {
      await page.setViewportSize(viewport);
      await signInThroughApi(page);
      await page.goto('/packages');
      await expect(page).toHaveTitle(`View Packages | ${BRAND}`, { timeout: 20_000 });
      const packages = page.getByRole('region', { name: 'Packages' });
      await expect(packages.getByRole('heading', { name: 'Digital Memories' })).toBeVisible();
      await expect(packages).toContainText('$29.95');
      await expect(packages).toContainText('Online gallery for 30 days');
      await expect(page.getByRole('region', { name: 'Add-ons' })).toContainText(/Photo ornament\s*.*\$19\.95/);
      expect(await hasHorizontalScroll(page)).toBe(false);
      const axe = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
      expect(axe.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/packages-${viewport.name}.png`, fullPage: true });

      const events = await recordedEvents(page);
      expect(events.map((e) => e.event)).toEqual(expect.arrayContaining(['package_view', 'view_item']));
      const viewItem = events.find((e) => e.event === 'view_item')!;
      expect(viewItem.params).toMatchObject({ currency: 'AUD', value: 29.95 });
      expect((viewItem.params.items as unknown[]).length).toBe(5);

      await page.getByRole('button', { name: 'Book now' }).first().click();
      await expect(page).toHaveURL(/\/create-booking$/);
      expect((await recordedEvents(page)).map((e) => e.event)).toContain('book_now');
    },
  );
}
