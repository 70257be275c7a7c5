import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { SCREENSHOT_DIR } from '../helpers/app';
import { bookThroughApi, cardOf, familyWithSession } from '../helpers/bookings';
import { CARDS, expectAccessible, fillCard, holdASession, stepHeading, toOverview } from '../helpers/purchase';

const DIR = `${SCREENSHOT_DIR}/account-credit`;
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

/**
 * Issue 52's account credit, as a family meets it: a cancellation's refund kept as credit (the dialog asks
 * where it goes), My Bookings shows the balance, and the next booking's Overview spends it, the card paying
 * the rest. At 390 and 1280 px, axe clean.
 */
for (const [width, height, day] of [
  [390, 844, 9],
  [1280, 900, 15],
] as const) {
  test(`a family cancels to account credit and books with it, at ${width} px`, async ({ page, baseURL }) => {
    test.setTimeout(180_000);
    mkdirSync(DIR, { recursive: true });
    await page.setViewportSize({ width, height });
    const api = await familyWithSession(page, baseURL!, `credit-${width}`);
    const booking = await bookThroughApi(api, page.request, { daysAhead: 4 });
    const price = dollars(booking.amountCents);

    await page.goto('/bookings');
    const card = cardOf(page, booking.reference);
    await card.getByRole('button', { name: 'Cancel booking' }).click();
    const dialog = page.getByRole('alertdialog', { name: 'Cancel this booking?' });
    const where = dialog.getByRole('group', { name: 'Where should the refund go?' });
    await expect(where.getByRole('radio', { name: /Back to my card/ })).toBeChecked();
    await where.getByText('Keep it as account credit').click();
    await expect(dialog.getByTestId('refund-wording')).toHaveText(
      `${price} will be added to your account credit at once, for a later booking.`,
    );
    await expectAccessible(page, `cancel to credit at ${width} px`);
    await page.screenshot({ path: `${DIR}/${width}-cancel-dialog.png` });
    await dialog.getByRole('button', { name: 'Cancel booking' }).click();
    await expect(
      page.getByText(`Booking ${booking.reference} is cancelled. ${price} is now account credit.`),
    ).toBeVisible();
    await expect(page.getByTestId('credit-balance')).toContainText(`Account credit: ${price}`);
    await page.screenshot({ path: `${DIR}/${width}-bookings-credit.png`, fullPage: true });

    await holdASession(page, { daysAhead: day });
    await toOverview(page);
    const pay = page.getByRole('checkbox', { name: 'Pay with my account credit' });
    await expect(pay).not.toBeChecked();
    await pay.check();
    await expect(page.getByTestId('credit-line').first()).toHaveText(`Account credit−${price}`);
    // Overview's Classic Print ($39.95) costs more than the first booking did: the card pays the rest.
    const rest = 3995 - booking.amountCents;
    expect(rest).toBeGreaterThan(0);
    await expect(page.getByTestId('overview-total')).toHaveText(dollars(rest));
    await expectAccessible(page, `overview paying with credit at ${width} px`);
    await page.getByTestId('credit').scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${DIR}/${width}-overview.png` });

    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await expect(stepHeading(page)).toHaveText('Payment');
    await expect(page.getByText('Amount to pay (incl. GST)').locator('..')).toContainText(dollars(rest));
    await fillCard(page, CARDS.success);
    await page.getByRole('button', { name: `Pay ${dollars(rest)}` }).click();
    await expect(page.getByRole('heading', { name: "You're booked in to see Santa!" })).toBeVisible({
      timeout: 30_000,
    });
    await expect(page.getByTestId('booking-total')).toHaveText('$39.95');
    await expect(page.getByTestId('booking-credit')).toContainText(price);
    await page.screenshot({ path: `${DIR}/${width}-confirmed.png`, fullPage: true });

    await page.goto('/bookings');
    await expect(page.getByTestId('booking-card').first()).toBeVisible({ timeout: 20_000 });
    await expect(page.getByTestId('credit-balance')).toHaveCount(0);
  });
}
