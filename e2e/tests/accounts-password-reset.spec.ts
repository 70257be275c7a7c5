import { expect as baseExpect, test } from '@playwright/test';
import {
  actionLinkFromOutbox,
  analyticsEvents,
  createAccountThroughApi,
  expectNoAxeViolations,
  expectNoSidewaysScrollAt320,
  logInThroughForm,
  NARROW,
  pathOf,
  shot,
  STRONG_PASSWORD,
  uniqueEmail,
  WIDE,
} from '../helpers/accounts';

// Journeys wait on the server (app check, argon2, the mail job): give them room on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });
test.beforeEach(() => test.slow());

const NEW_PASSWORD = 'Reindeer-Games-2026';

// Issue 3: forgot password, reset from the emailed link, sign in with the new password, old one refused.
for (const [name, viewport] of [
  ['wide', WIDE],
  ['narrow', NARROW],
] as const) {
  test(`forgot password, reset, new password works and the old one is refused (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const email = uniqueEmail(`reset-${name}`);
    await createAccountThroughApi(page.request, email);

    await page.goto('/login');
    await expectNoAxeViolations(page, '/login');
    await shot(page, 'login');
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await expect(page.getByRole('heading', { name: 'Forgot your password?' })).toBeVisible();
    await expectNoAxeViolations(page, '/forgot-password');
    await shot(page, 'forgot-password');
    await page.getByLabel('Email address').fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('heading', { name: 'Check your email' })).toBeVisible();
    await expect(page.getByText(/If an account exists for that email address/)).toBeVisible();
    await expectNoAxeViolations(page, '/forgot-password sent');
    await shot(page, 'forgot-password-sent');
    expect(await analyticsEvents(page)).toContain('forgot_password');

    const { link } = await actionLinkFromOutbox(page.request, email, /Reset your/);
    await page.goto(pathOf(link));
    await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
    // The account is named, masked: first letter, stars, last letter of the local part.
    await expect(page.getByText(/r\*\*\*.@example\.com/)).toBeVisible();
    await page.getByLabel('New password', { exact: true }).fill('short');
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.getByText('Use at least 8 characters').first()).toBeVisible();
    await expectNoAxeViolations(page, '/verify reset form');
    await shot(page, 'reset-form');
    await expectNoSidewaysScrollAt320(page);

    await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await expect(page.getByTestId('password-strength')).toContainText(/Good|Strong/);
    await page.getByRole('button', { name: 'Save new password' }).click();
    await expect(page.getByRole('heading', { name: 'Your password has been changed' })).toBeVisible();
    await expectNoAxeViolations(page, '/verify reset done');
    await shot(page, 'reset-done');
    expect(await analyticsEvents(page)).toContain('password_reset');

    await page.getByRole('link', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await logInThroughForm(page, email, STRONG_PASSWORD);
    await expect(page.getByRole('alert')).toContainText('The email address or password is incorrect.');
    await expectNoAxeViolations(page, '/login wrong password');
    await shot(page, 'login-refused');

    await page.getByLabel('Password', { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    // The reset link proved the mailbox, so the account is verified and goes straight in.
    await expect(page).toHaveURL(/\/bookings$/);
    await expect(page.getByRole('heading', { name: 'My Bookings' })).toBeVisible();
    expect(await analyticsEvents(page)).toContain('login');

    // The link is single-use.
    await page.goto(pathOf(link));
    await expect(page.getByRole('heading', { name: 'This link has been used or is not valid' })).toBeVisible();
  });
}

test('a used reset link offers a new one to a guest', async ({ page }) => {
  const email = uniqueEmail('reset-used');
  await createAccountThroughApi(page.request, email);
  await page.goto('/forgot-password');
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  const first = await actionLinkFromOutbox(page.request, email, /Reset your/);
  // A newer link voids the older one.
  await page.getByRole('button', { name: 'Use a different email address' }).click();
  await page.getByLabel('Email address').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await actionLinkFromOutbox(page.request, email, /Reset your/, { notId: first.id });

  await page.goto(pathOf(first.link));
  await expect(page.getByRole('heading', { name: 'This link has been used or is not valid' })).toBeVisible();
  await expectNoAxeViolations(page, '/verify used reset link');
  await shot(page, 'reset-link-used');
  await page.getByRole('link', { name: 'Ask for a new reset link' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
});

test('an expired link says so and offers a new one', async ({ page }) => {
  // Links live 1 h (reset) and 24 h (verify); the API's answer for an old one is stood in for here.
  await page.route('**/api/v1/auth/action/check', (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'This link has expired. Please ask for a new one.', code: 'EXPIRED_ACTION_CODE' }),
    }),
  );
  await page.route('**/api/v1/auth/action/verify-email', (route) =>
    route.fulfill({
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({ error: 'This link has expired. Please ask for a new one.', code: 'EXPIRED_ACTION_CODE' }),
    }),
  );
  await page.goto('/verify?mode=resetPassword&oobCode=old');
  await expect(page.getByRole('heading', { name: 'This link has expired' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Ask for a new reset link' })).toBeVisible();
  await expectNoAxeViolations(page, '/verify expired reset');
  await shot(page, 'reset-link-expired');
  await expectNoSidewaysScrollAt320(page);

  await page.goto('/verify?mode=verifyEmail&oobCode=old');
  await expect(page.getByRole('heading', { name: 'This link has expired' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Log in to get a new link' })).toBeVisible();
  await expectNoAxeViolations(page, '/verify expired verify');
  await shot(page, 'verify-link-expired');
});
