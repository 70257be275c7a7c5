import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { SCREENSHOT_DIR } from '../helpers/app';
import { CARDS, expectAccessible, fillCard, holdASession, stepHeading, toOverview } from '../helpers/purchase';
import { staffNav } from '../helpers/staff';
import { newStaffMember, signInAndEnrol } from '../helpers/staff-mfa';
import { signInFreshCustomer } from '../helpers/wizard';

const DIR = `${SCREENSHOT_DIR}/promo-codes`;

/** A manager makes a 10% code on the Promo codes page; it is listed with its rules. Returns the code. */
async function managerMakesCode(page: Page, width: number): Promise<string> {
  const code = `TEN-${width}-${Math.random().toString(36).slice(2, 6).toUpperCase()}`;
  await signInAndEnrol(page, await newStaffMember(page, 'manager', `promo-${width}`));
  await (await staffNav(page)).getByRole('link', { name: 'Promo codes' }).click();
  await expect(page).toHaveTitle(/^Promo codes \|/);
  const form = page.getByRole('form', { name: 'New promo code' });
  await form.getByLabel('Code').fill(code.toLowerCase());
  await form.getByLabel('Percent off (1 to 100)').fill('10');
  await form.getByRole('button', { name: 'Create code' }).click();
  await expect(page.getByText(`${code} created`)).toBeVisible();
  const row = page.getByRole('row', { name: new RegExp(code) });
  await expect(row.getByRole('cell').nth(0)).toHaveText('10%');
  await expect(row).toContainText('All locations');
  await expect(row).toContainText('Active');
  await expectAccessible(page, `promo codes page at ${width} px`);
  await page.screenshot({ path: `${DIR}/${width}-staff.png`, fullPage: true });
  return code;
}

/**
 * Issue 52 from both sides: a manager makes a code; a family is told why a code it mistyped does not
 * apply, applies the manager's, sees the discount and the lower total, pays that with the card, and the
 * confirmation shows what was paid. At 390 and 1280 px, axe clean on the staff page and on Overview.
 */
for (const [width, height, day] of [
  [390, 844, 12],
  [1280, 900, 14],
] as const) {
  test(`a manager's promo code, applied by a family on Overview and paid for, at ${width} px`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    mkdirSync(DIR, { recursive: true });
    await page.setViewportSize({ width, height });
    const code = await managerMakesCode(page, width);
    await page.context().clearCookies();

    await signInFreshCustomer(page, baseURL!, `promo-${width}`);
    await holdASession(page, { daysAhead: day });
    await toOverview(page);
    await expect(page.getByTestId('overview-total')).toHaveText('$39.95');
    const field = page.getByRole('textbox', { name: 'Promo code' });
    await field.fill('NO-SUCH-CODE');
    await page.getByTestId('promo-code').getByRole('button', { name: 'Apply' }).click();
    const refusal = page.getByTestId('promo-code').getByRole('alert');
    await expect(refusal).toContainText('NO-SUCH-CODE');
    await expect(field).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('overview-total')).toHaveText('$39.95');
    await page.screenshot({ path: `${DIR}/${width}-overview-refused.png`, fullPage: true });

    await field.fill(code.toLowerCase());
    await page.getByTestId('promo-code').getByRole('button', { name: 'Apply' }).click();
    // 10% of $39.95 is 399.5 cents, rounded to $4.00 off.
    await expect(page.getByTestId('promo-line')).toHaveText(`Promo ${code}−$4.00`);
    await expect(page.getByTestId('overview-total')).toHaveText('$35.95');
    await expect(refusal).toBeEmpty();
    await expect(page.getByTestId('cart-total').first()).toHaveText('$35.95');
    await expectAccessible(page, `overview with a promo code at ${width} px`);
    await page.getByTestId('promo-code').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${DIR}/${width}-overview-applied.png` });
    await page.screenshot({ path: `${DIR}/${width}-overview-applied-full.png`, fullPage: true });

    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await expect(stepHeading(page)).toHaveText('Payment');
    await expect(page.getByText('Amount to pay (incl. GST)').locator('..')).toContainText('$35.95');
    await fillCard(page, CARDS.success);
    await page.getByRole('button', { name: 'Pay $35.95' }).click();
    await expect(page.getByRole('heading', { name: "You're booked in to see Santa!" })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByTestId('booking-total')).toHaveText('$35.95');
    await expect(page.getByText('Discount').locator('..')).toContainText('−$4.00');
    await page.screenshot({ path: `${DIR}/${width}-confirmed.png`, fullPage: true });

    await page.goto('/bookings');
    await expect(page.getByTestId('booking-card').first().getByTestId('booking-total')).toHaveText('$35.95', {
      timeout: 20_000,
    });
  });
}
