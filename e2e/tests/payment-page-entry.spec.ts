import { expect, test } from '@playwright/test';
import { signInThroughApi } from '../helpers/app';
import { recordedEvents } from '../helpers/wizard';

/**
 * Issue 51, PCI DSS SAQ A (decision 0098): a document keeps the CSP it loaded with, so the wizard, a payment page,
 * is entered by a full navigation and runs under the payment pages' CSP (the inventory's script-src, no analytics
 * host), not under the CSP of the page the family came from.
 */
test('the wizard opened from View Packages is a document of its own, under the payment pages’ CSP', async ({
  page,
}) => {
  await signInThroughApi(page);
  await page.goto('/packages');
  await expect(page.getByRole('button', { name: 'Book now' }).first()).toBeVisible({ timeout: 20_000 });
  const packagesCsp = (await page.request.get('/packages')).headers()['content-security-policy'] ?? '';
  // A mark on this document: gone once another document loads.
  await page.evaluate(() => ((window as unknown as { __sameDocument?: boolean }).__sameDocument = true));
  const wizardDocument = page.waitForResponse(
    (r) => r.request().resourceType() === 'document' && new URL(r.url()).pathname === '/create-booking',
  );
  await page.getByRole('button', { name: 'Book now' }).first().click();
  const response = await wizardDocument;
  await expect(page.locator('#wizard-step-title')).toHaveText('Where would you like to visit Santa?', {
    timeout: 20_000,
  });
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBeUndefined();

  const csp = response.headers()['content-security-policy'] ?? '';
  expect(csp).toContain('https://js.stripe.com');
  expect(csp).toContain('report-uri /api/v1/csp-reports');
  expect(csp).not.toMatch(/googletagmanager|google-analytics/);
  expect(csp, 'not the CSP of the page it came from').not.toBe(packagesCsp);
  // What was recorded before the wizard's document is kept with it.
  expect((await recordedEvents(page)).map((e) => e.event)).toContain('book_now');
  // No analytics script in the payment page's document.
  expect(await page.locator('script[src*="googletagmanager"]').count()).toBe(0);
});
