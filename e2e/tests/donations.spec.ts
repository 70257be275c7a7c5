import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { SCREENSHOT_DIR } from '../helpers/app';
import { CARDS, expectAccessible, fillCard, holdASession, stepHeading, toOverview } from '../helpers/purchase';
import { signInFreshCustomer } from '../helpers/wizard';
import { E2E_CHARITY } from '../helpers/charity';

const DIR = `${SCREENSHOT_DIR}/donations`;

/**
 * Issue 52's donation line, as a family meets it: Overview offers the operator's charity (the e2e stack names
 * one), a tap adds $5 as its own line without GST, Payment charges goods and donation, and the confirmation
 * and My Bookings show it apart. At 390 and 1280 px, axe clean.
 */
for (const [width, height, day] of [
  [390, 844, 13],
  [1280, 900, 18],
] as const) {
  test(`a family adds a donation on Overview and pays it with the booking, at ${width} px`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(180_000);
    mkdirSync(DIR, { recursive: true });
    await page.setViewportSize({ width, height });
    await signInFreshCustomer(page, baseURL!, `donation-${width}`);
    await holdASession(page, { daysAhead: day });
    await toOverview(page);

    const offer = page.getByRole('group', { name: `Add a donation to ${E2E_CHARITY}?` });
    await expect(offer.getByRole('radio', { name: 'No thanks' })).toBeChecked();
    await expect(page.getByTestId('overview-total')).toHaveText('$39.95');
    await offer.getByText('$5', { exact: true }).click();
    await expect(offer.getByRole('radio', { name: '$5' })).toBeChecked();
    const line = page.getByTestId('donation-line').first();
    await expect(line).toHaveText(`Donation to ${E2E_CHARITY} (no GST)$5.00`);
    await expect(page.getByTestId('overview-total')).toHaveText('$44.95');
    // The GST stays one eleventh of the goods.
    await expect(page.getByText('GST included').first().locator('..')).toContainText('$3.63');
    await expectAccessible(page, `overview with a donation at ${width} px`);
    await offer.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${DIR}/${width}-overview.png` });

    // Another amount, typed; then back to $5.
    await offer.getByText('Other amount', { exact: true }).click();
    const amount = page.getByRole('textbox', { name: /^Amount \(AUD/ });
    await expect(amount).toBeFocused();
    await amount.fill('250');
    await amount.press('Enter');
    await expect(offer.getByRole('alert')).toContainText('Enter an amount up to $100.00');
    await expectAccessible(page, `overview with a refused amount at ${width} px`);
    await page.screenshot({ path: `${DIR}/${width}-overview-other.png` });
    await offer.getByText('$5', { exact: true }).click();
    await expect(page.getByTestId('overview-total')).toHaveText('$44.95');

    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await expect(stepHeading(page)).toHaveText('Payment');
    await expect(page.getByText('Amount to pay (incl. GST)').locator('..')).toContainText('$44.95');
    await fillCard(page, CARDS.success);
    await page.getByRole('button', { name: 'Pay $44.95' }).click();
    await expect(page.getByRole('heading', { name: "You're booked in to see Santa!" })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByTestId('booking-total')).toHaveText('$44.95');
    await expect(page.getByTestId('booking-donation')).toHaveText(`Donation to ${E2E_CHARITY} (no GST)$5.00`);
    await page.screenshot({ path: `${DIR}/${width}-confirmed.png`, fullPage: true });
  });
}
