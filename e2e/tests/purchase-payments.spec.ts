import { expect, test } from '@playwright/test';
import { signInFreshCustomer } from '../helpers/wizard';
import {
  CARDS,
  chooseAndCheckOut,
  expectAccessible,
  fillCard,
  holdASession,
  shot,
  upcomingReferences,
} from '../helpers/purchase';

test.use({ viewport: { width: 390, height: 844 } });

test('a declined card says so in plain words, and paying again with another card succeeds', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const customer = await signInFreshCustomer(page, baseURL!, 'decline');
  await holdASession(page, { daysAhead: 1 });
  // The narrowest phones: nothing scrolls sideways on the Package step.
  await page.setViewportSize({ width: 320, height: 640 });
  await expect(page.getByRole('radio', { name: /^Classic Print/ })).toBeVisible();
  await expectAccessible(page, 'package at 320 px');
  await shot(page, '4-package');
  await chooseAndCheckOut(page);
  await expectAccessible(page, 'payment at 320 px');
  await shot(page, '7-payment');
  await page.setViewportSize({ width: 390, height: 844 });

  await fillCard(page, CARDS.declined);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  const alert = page.getByRole('alert').filter({ hasText: 'Payment not completed' });
  await expect(alert).toContainText('Your card was declined by your bank');
  await expect(alert).toContainText('You have not been charged');
  // Focus on the reason, not lost to the page: the next Tab reaches the card fields.
  await expect(alert).toBeFocused();
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Card number')).toBeFocused();
  await expect(page.getByRole('timer')).toBeVisible();
  await expectAccessible(page, 'declined');
  await shot(page, '7-payment-declined');

  await fillCard(page, CARDS.insufficientFunds);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(alert).toContainText('does not have enough funds');

  await fillCard(page, CARDS.success);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page.getByRole('heading', { name: "You're booked in to see Santa!" })).toBeVisible({ timeout: 20_000 });
  const reference = (await page.getByTestId('booking-reference').textContent())!.trim();
  expect(await upcomingReferences(page, customer.email, customer.password)).toContainEqual(
    expect.objectContaining({ reference, status: 'completed' }),
  );
});

test('a 3-D Secure card goes to the bank page and, approved, comes back confirmed', async ({ page, baseURL }) => {
  test.setTimeout(120_000);
  const customer = await signInFreshCustomer(page, baseURL!, 'threeds');
  await holdASession(page, { daysAhead: 2 });
  await chooseAndCheckOut(page);

  await fillCard(page, CARDS.threeDSecure);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page.getByRole('heading', { name: /3-D Secure/ })).toBeVisible({ timeout: 15_000 });
  await shot(page, '7-payment-3ds-bank');
  await page.getByRole('button', { name: 'Approve' }).click();

  await expect(page).toHaveURL(/\/success\?bookingId=.*redirect_status=succeeded/);
  await expect(page.getByRole('heading', { name: "You're booked in to see Santa!" })).toBeVisible({ timeout: 20_000 });
  const reference = (await page.getByTestId('booking-reference').textContent())!.trim();
  expect(await upcomingReferences(page, customer.email, customer.password)).toContainEqual(
    expect.objectContaining({ reference, status: 'completed' }),
  );
});

test('a failed 3-D Secure check lands on /error, which offers paying again while the hold lives', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await signInFreshCustomer(page, baseURL!, 'threeds-fail');
  await holdASession(page, { daysAhead: 3 });
  await chooseAndCheckOut(page);

  await fillCard(page, CARDS.threeDSecure);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await page.getByRole('button', { name: 'Fail' }).click();

  await expect(page).toHaveURL(/\/error\?bookingId=/);
  await expect(page.getByRole('heading', { name: "Your payment didn't go through" })).toBeVisible();
  await expect(page.getByText(/Your session is still held for \d+:\d{2}/)).toBeVisible();
  await expectAccessible(page, 'error');
  await shot(page, '9-error');

  // Back on the Payment step, with the countdown restored from the stored hold.
  await page.getByRole('button', { name: 'Try paying again' }).click();
  await expect(page.locator('#wizard-step-title')).toHaveText('Payment');
  await expect(page.getByRole('timer')).toBeVisible();
  await fillCard(page, CARDS.success);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page.getByRole('heading', { name: "You're booked in to see Santa!" })).toBeVisible({ timeout: 20_000 });
});
