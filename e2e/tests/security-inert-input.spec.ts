import { expect as baseExpect, test, type Page } from '@playwright/test';
import {
  actionLinkFromOutbox,
  logInThroughForm,
  NARROW,
  pathOf,
  registerThroughForm,
  STRONG_PASSWORD,
  uniqueEmail,
} from '../helpers/accounts';

// Journeys wait on the server (app check, argon2, the mail job): give them room on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });
test.beforeEach(() => test.slow());

// ASVS 5.3.3: what a customer typed is shown as text. The API side (stored verbatim, escaped in
// mail, text in PDFs) is apps/api/test/security/inert-input.test.ts.
const FIRST = '<img src=x onerror=alert(1)>';
const LAST = "'; drop table users;--";

/**
 * Records every dialog (alert/confirm/prompt) and every element the payload would create if it
 * were parsed as HTML. The CSP would also block the inline handler, so a dialog alone could not
 * prove the name was inert: the DOM check does.
 */
function watchForScript(page: Page): { dialogs: string[]; cspViolations: string[] } {
  const seen = { dialogs: [] as string[], cspViolations: [] as string[] };
  page.on('dialog', (dialog) => {
    seen.dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  // The app itself must run under its CSP: a violation means the policy or the build is wrong.
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) seen.cspViolations.push(message.text());
  });
  return seen;
}
const injectedElements = (page: Page) => page.locator('img[src="x"], svg[onload]').count();

test('a customer named with markup and SQL sees the name as text everywhere it is shown; nothing runs', async ({
  page,
}) => {
  const seen = watchForScript(page);
  const email = uniqueEmail('inert');
  const served = await page.goto('/register');
  // The real build is served with the API's security headers.
  const headers = served!.headers();
  expect(headers['content-security-policy']).toMatch(/default-src 'self'/);
  expect(headers['content-security-policy']).toMatch(/script-src-attr 'none'/);
  expect(headers['x-content-type-options']).toBe('nosniff');
  await registerThroughForm(page, { email, password: STRONG_PASSWORD, firstName: FIRST, lastName: LAST });
  await expect(page.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();

  const { link } = await actionLinkFromOutbox(page.request, email, /Verify your email/);
  await page.goto(pathOf(link));
  await expect(page.getByRole('heading', { name: 'Your email address is verified' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue to my bookings' }).click();
  await expect(page).toHaveURL(/\/bookings$/);

  // The sidebar shows the (capitalised) full name, as characters on the screen.
  const sidebar = page.getByTestId('sidebar');
  await expect(sidebar.getByText(/<img src=x onerror=alert\(1\)> '; drop table users;--/i)).toBeVisible();
  for (const path of ['/packages', '/create-booking', '/bookings']) {
    await page.goto(path);
    await expect(sidebar.getByText(/<img src=x onerror=alert\(1\)>/i)).toBeVisible();
    expect(await injectedElements(page), path).toBe(0);
  }

  // On a phone the name is in the profile menu of the bottom tab bar.
  await page.setViewportSize(NARROW);
  await page.getByTestId('bottom-tab-bar').getByRole('button', { name: 'Profile' }).click();
  await expect(page.getByRole('menu').getByText(/<img src=x onerror=alert\(1\)>/i)).toBeVisible();
  expect(await injectedElements(page)).toBe(0);

  // The mail as the development mailbox shows it: escaped in the list, inert in its sandboxed frame.
  await page.goto(`/dev/mailbox?to=${encodeURIComponent(email)}`);
  await expect(page.getByRole('heading', { name: /Verify your email address/ }).first()).toBeVisible();
  const frame = page.frameLocator('iframe[title="Message body"]');
  await expect(frame.getByRole('paragraph').filter({ hasText: 'Hi <img src=x onerror=alert(1)>,' })).toBeVisible();
  expect(await frame.locator('img[src="x"]').count()).toBe(0);
  expect(await injectedElements(page)).toBe(0);

  expect(seen.dialogs).toEqual([]);
  expect(seen.cspViolations).toEqual([]);
});

test('redirect-looking parameters never take a signed-in customer off the site', async ({ page, baseURL }) => {
  const seen = watchForScript(page);
  const email = uniqueEmail('redirect');
  await page.goto('/register');
  await registerThroughForm(page, { email, password: STRONG_PASSWORD, firstName: 'Holly', lastName: 'Berry' });
  await expect(page.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
  const { link } = await actionLinkFromOutbox(page.request, email, /Verify your email/);
  const evil = ['https://evil.example/', '//evil.example/', '/\\evil.example/', 'javascript:alert(1)'];
  const params = evil.flatMap((target) =>
    ['redirectUrl', 'redirect', 'returnTo', 'next', 'continueUrl'].map(
      (name) => `${name}=${encodeURIComponent(target)}`,
    ),
  );
  await page.goto(`${pathOf(link)}&${params.slice(0, 10).join('&')}`);
  await expect(page.getByRole('heading', { name: 'Your email address is verified' })).toBeVisible();
  await page.getByRole('button', { name: 'Continue to my bookings' }).click();
  await expect(page).toHaveURL(/\/bookings$/);
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);

  // Signed out, then in again through the login page carrying the same parameters.
  await page.context().clearCookies();
  await page.evaluate(() => window.localStorage.clear());
  await page.goto(`/login?${params.join('&')}`);
  await logInThroughForm(page, email, STRONG_PASSWORD);
  await expect(page).toHaveURL(/\/bookings$/);
  expect(new URL(page.url()).origin).toBe(new URL(baseURL!).origin);
  expect(seen.dialogs).toEqual([]);
});
