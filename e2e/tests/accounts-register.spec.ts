import { expect as baseExpect, test } from '@playwright/test';
import {
  actionLinkFromOutbox,
  analyticsEvents,
  expectNoAxeViolations,
  expectNoSidewaysScrollAt320,
  hasHorizontalScroll,
  NARROW,
  pathOf,
  registerThroughForm,
  shot,
  STRONG_PASSWORD,
  uniqueEmail,
  WIDE,
} from '../helpers/accounts';

// Journeys wait on the server (app check, argon2, the mail job): give them room on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });
test.beforeEach(() => test.slow());

// Issue 3: register, read the link from the dev outbox, verify, land on /bookings; at 1280 and 390 px.
for (const [name, viewport] of [
  ['wide', WIDE],
  ['narrow', NARROW],
] as const) {
  test(`register, verify from the emailed link, land on /bookings (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const email = uniqueEmail(`reg-${name}`);

    await page.goto('/register');
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    await expectNoAxeViolations(page, '/register');
    expect(await hasHorizontalScroll(page)).toBe(false);
    await shot(page, 'register');

    // Inline errors from the shared rules, linked to their fields.
    await page.getByRole('button', { name: 'Create account' }).click();
    const emailField = page.getByLabel('Email address');
    await expect(emailField).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByText('Enter a valid email address')).toBeVisible();
    await emailField.fill('holly@north');
    await page.getByLabel('Password', { exact: true }).fill('password');
    await expect(page.getByTestId('password-strength')).toContainText('Too weak');
    await expectNoAxeViolations(page, '/register with errors');
    await shot(page, 'register-errors');

    await registerThroughForm(page, { email, password: STRONG_PASSWORD });
    // Signed in but unverified: the verification screen, and only that.
    await expect(page.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
    await expect(page.getByText(email)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Verify Email address' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Back to login' })).toBeVisible();
    await expect(page.getByText('Did not receive the email?')).toBeVisible();
    await expect(page.getByTestId('sidebar')).toHaveCount(0);
    await expectNoAxeViolations(page, 'verify screen');
    await shot(page, 'verify-screen');
    await expectNoSidewaysScrollAt320(page);
    expect(await analyticsEvents(page)).toContain('sign_up');

    // The verification e-mail was asked for at once, and the server sends one a minute: Resend
    // waits the rest of that minute out, instead of answering a tap with an error.
    await expect(page.getByRole('button', { name: /^Resend Email \(\d+ s\)$/ })).toBeDisabled();
    await expect(page.getByText(/^You can ask for another link in \d+ seconds\.$/)).toBeVisible();

    const { link } = await actionLinkFromOutbox(page.request, email, /Verify your email/);
    await page.goto(pathOf(link));
    await expect(page.getByRole('heading', { name: 'Your email address is verified' })).toBeVisible();
    await expectNoAxeViolations(page, '/verify verified');
    await shot(page, 'verify-link-success');
    await expectNoSidewaysScrollAt320(page);
    expect(await analyticsEvents(page)).toContain('email_verification');

    await page.getByRole('button', { name: 'Continue to my bookings' }).click();
    await expect(page).toHaveURL(/\/bookings$/);
    await expect(page.getByRole('heading', { name: 'My Bookings' })).toBeVisible();
    expect(await hasHorizontalScroll(page)).toBe(false);

    // The same link a second time: used, and nothing more to do for a verified customer.
    await page.goto(pathOf(link));
    await expect(page.getByRole('heading', { name: 'Your email address is already verified' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to my bookings' })).toBeVisible();
    await shot(page, 'verify-link-used');
  });

  // Issue 37 item 10 (decision 0068): a typo in the address is corrected on the unverified
  // account itself, from the verify screen; the new address's link verifies, the old one is refused.
  test(`register with a typo, change the address, verify from the new mail; the old link is refused (${name})`, async ({
    page,
  }) => {
    await page.setViewportSize(viewport);
    const right = uniqueEmail(`change-${name}`);
    const typo = right.replace('@example.com', '@exmaple.com');

    await page.goto('/register');
    await registerThroughForm(page, { email: typo, password: STRONG_PASSWORD });
    await expect(page.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
    await expect(page.getByText(/We've sent a verification link to/)).toContainText(typo);
    const old = await actionLinkFromOutbox(page.request, typo, /Verify your email/);

    await page.getByRole('button', { name: 'Wrong address? Change it' }).click();
    const form = page.getByRole('form', { name: 'Change your email address' });
    await expect(form).toBeVisible();
    const emailField = form.getByLabel('Email address');
    await expect(emailField).toHaveValue(typo);
    await expect(emailField).toBeFocused();
    // Still signed in, on the same screen: nothing was thrown away.
    await expect(page).not.toHaveURL(/\/register$/);
    await expectNoAxeViolations(page, 'verify screen, change-address form');
    expect(await hasHorizontalScroll(page)).toBe(false);
    await shot(page, 'change-email-form');

    // A wrong password is refused next to its field, and nothing moves.
    await emailField.fill(right);
    await form.getByLabel('Password', { exact: true }).fill('Not-The-Password-1');
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByLabel('Password', { exact: true })).toHaveAccessibleDescription(
      /The password is not right\./,
    );
    await expectNoAxeViolations(page, 'change-address form with an error');
    await shot(page, 'change-email-wrong-password');

    await form.getByLabel('Password', { exact: true }).fill(STRONG_PASSWORD);
    await form.getByRole('button', { name: 'Save' }).click();
    const changed = page.getByRole('status').filter({ hasText: 'Email address changed' });
    await expect(changed).toContainText(
      `We've sent a new verification link to ${right}. Links sent to the old address no longer work.`,
    );
    await expect(form).toHaveCount(0);
    await expect(page.getByText(/We've sent a verification link to/)).toContainText(right);
    // The change sent a mail: Resend waits its minute out, as after registering.
    await expect(page.getByRole('button', { name: /^Resend Email \(\d+ s\)$/ })).toBeDisabled();
    await expectNoAxeViolations(page, 'verify screen after the change');
    await shot(page, 'change-email-done');
    await expectNoSidewaysScrollAt320(page);

    // The link mailed to the typo is dead.
    await page.goto(pathOf(old.link));
    await expect(page.getByRole('heading', { name: 'This link has been used or is not valid' })).toBeVisible();
    await shot(page, 'change-email-old-link');

    const fresh = await actionLinkFromOutbox(page.request, right, /Verify your email/);
    await page.goto(pathOf(fresh.link));
    await expect(page.getByRole('heading', { name: 'Your email address is verified' })).toBeVisible();
    await page.getByRole('button', { name: 'Continue to my bookings' }).click();
    await expect(page).toHaveURL(/\/bookings$/);
    await expect(page.getByRole('heading', { name: 'My Bookings' })).toBeVisible();
  });
}

test('an e-mail already registered gets plain words and the ways to log in or reset', async ({ page }) => {
  await page.goto('/register');
  await registerThroughForm(page, { email: 'demo@kringle.test', password: STRONG_PASSWORD });
  const alert = page.getByRole('alert');
  await expect(alert).toContainText('An account with this email address already exists.');
  await expect(alert.getByRole('link', { name: 'Log in' })).toHaveAttribute('href', '/login');
  await alert.getByRole('link', { name: 'reset your password' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await expect(page.getByLabel('Email address')).toHaveValue('demo@kringle.test');
});

test('links between the auth pages and to the terms', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('link', { name: 'Create an account' }).click();
  await expect(page).toHaveURL(/\/register$/);
  await expect(page.getByRole('main').getByRole('link', { name: 'Terms and Conditions' })).toHaveAttribute(
    'href',
    '/terms_and_conditions',
  );
  await page.getByRole('main').getByRole('link', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await page.getByRole('link', { name: 'Forgot your password?' }).click();
  await expect(page).toHaveURL(/\/forgot-password$/);
  await page.getByRole('main').getByRole('link', { name: 'Back to login' }).click();
  await expect(page).toHaveURL(/\/login$/);
});
