import { mkdirSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { expectNoAxeViolations, hasHorizontalScroll, NARROW, pathOf, uniqueEmail, WIDE } from '../helpers/accounts';
import { SCREENSHOT_DIR } from '../helpers/app';
import { openStaffMenu, staffNav } from '../helpers/staff';

const DIR = `${SCREENSHOT_DIR}/staff-people`;
const MANAGER = 'manager@kringle.test';
const DEMO_PASSWORD = 'HoHoHo-2026!';
const NEW_PASSWORD = 'Tinsel-Town-2026';

// The journey enrols the demo manager's second factor, once per stack: a retry would meet it
// enrolled, with a secret only the first attempt knew.
test.describe.configure({ retries: 0 });

async function signIn(page: Page, email: string, password: string) {
  await page.goto('/staff');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

async function invitationLink(request: APIRequestContext, to: string): Promise<string> {
  let text = '';
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/v1/dev/outbox?to=${encodeURIComponent(to)}`);
        const items = res.ok() ? ((await res.json()) as { items: { subject: string; text: string }[] }).items : [];
        text = items.find((m) => /invited to the .* staff app/.test(m.subject))?.text ?? '';
        return text;
      },
      { timeout: 15_000, message: `the invitation to ${to}` },
    )
    .not.toBe('');
  return /https?:\/\/\S+\/staff\/invite\?code=[\w-]+/.exec(text)![0];
}

test(
  'a manager enrols a second factor, invites a set member, who accepts from the mailbox, signs in, and signs out ' +
    'everywhere',
  async ({ page, browser }) => {
    test.setTimeout(120_000);
    mkdirSync(DIR, { recursive: true });
    await page.setViewportSize(WIDE);

    // First sign-in: the manager must set up the second step before anything else.
    await signIn(page, MANAGER, DEMO_PASSWORD);
    await expect(page.getByRole('heading', { name: 'Set up your sign-in code' })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByRole('img', { name: /QR code/ })).toBeVisible();
    const secret = (await page.locator('code').textContent())!.trim();
    await expectNoAxeViolations(page, 'enrol');
    await page.screenshot({ path: `${DIR}/1280-enrol.png`, fullPage: true });
    const totp = new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
    await page.getByLabel('Code from the app').fill(totp.generate());
    await page.getByRole('button', { name: 'Turn on the second step' }).click();

    const codes = page.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem');
    await expect(codes).toHaveCount(10);
    const recovery = (await codes.first().textContent())!.trim();
    await expectNoAxeViolations(page, 'recovery codes');
    await page.screenshot({ path: `${DIR}/1280-recovery-codes.png`, fullPage: true });
    await expect(page.getByRole('button', { name: 'Continue to the staff app' })).toBeDisabled();
    await page.getByLabel('I have saved them').check();
    await page.getByRole('button', { name: 'Continue to the staff app' }).click();

    // A manager sees every page, the Staff page among them.
    const nav = page.getByRole('navigation', { name: 'Staff' });
    await expect(nav.getByRole('link')).toHaveText([
      'Run sheet',
      'Check in',
      'Walk-in',
      'Photos',
      'Support',
      'Audit',
      'Disputes',
      'Vouchers',
      'Live',
      'Reports',
      'Promo codes',
      'Closures',
      'Season',
      'Staff',
    ]);
    await nav.getByRole('link', { name: 'Staff' }).click();
    await expect(page.getByRole('heading', { name: 'Staff', level: 1 })).toBeVisible();
    await expect(page.getByText(`${MANAGER} (you)`)).toBeVisible();

    const newcomer = uniqueEmail('set-elf');
    const invite = page.getByRole('form', { name: 'Invite someone' });
    await invite.getByLabel('E-mail').fill(newcomer);
    await invite.getByLabel('Role').selectOption('set');
    await invite.getByRole('button', { name: 'Send invitation' }).click();
    await expect(page.getByText(`Invitation sent to ${newcomer}.`)).toBeVisible();
    await expect(page.getByText(newcomer, { exact: true })).toBeVisible();
    await expectNoAxeViolations(page, 'staff page');
    await page.screenshot({ path: `${DIR}/1280-staff-page.png`, fullPage: true });

    // The manager signs in again: the password, then a recovery code (the TOTP code just used works once).
    await openStaffMenu(page);
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await signIn(page, MANAGER, DEMO_PASSWORD);
    await page.getByLabel('Code').fill(recovery);
    await expectNoAxeViolations(page, 'sign-in code');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(page.getByRole('navigation', { name: 'Staff' })).toBeVisible({ timeout: 30_000 });
    // The Staff page on a phone: nothing sideways, targets still 44 px.
    await page.setViewportSize(NARROW);
    await (await staffNav(page)).getByRole('link', { name: 'Staff' }).click();
    await expect(page.getByText(newcomer, { exact: true })).toBeVisible();
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectNoAxeViolations(page, 'staff page at 390');
    await page.screenshot({ path: `${DIR}/390-staff-page.png`, fullPage: true });

    // The newcomer, in their own browser, opens the e-mail in the development mailbox and follows its link.
    const link = await invitationLink(page.request, newcomer);
    const theirs = await browser.newContext({ viewport: WIDE, locale: 'en-AU' });
    const other = await theirs.newPage();
    await other.goto(`/dev/mailbox?to=${encodeURIComponent(newcomer)}`);
    await other
      .getByRole('navigation', { name: 'Messages' })
      .getByRole('link', { name: /invited to the .* staff app/ })
      .click();
    await expect(other.getByRole('heading', { name: /invited to the .* staff app/ })).toBeVisible();
    await other.screenshot({ path: `${DIR}/1280-invitation-in-mailbox.png`, fullPage: true });
    const shown = /https?:\/\/\S+\/staff\/invite\?code=[\w-]+/.exec(
      (await other.locator('article.message pre').textContent()) ?? '',
    )?.[0];
    expect(shown).toBe(link);
    await other.goto(pathOf(shown!));
    await other.getByLabel('New password').fill(NEW_PASSWORD);
    await other.getByLabel('Repeat the password').fill(NEW_PASSWORD);
    await expectNoAxeViolations(other, 'invitation');
    await other.getByRole('button', { name: 'Set my password' }).click();
    await expect(other.getByRole('status')).toContainText('Your password is set.');
    await other.screenshot({ path: `${DIR}/1280-invitation-accepted.png`, fullPage: true });
    await other.getByRole('link', { name: 'Go to sign in' }).click();
    await other.getByLabel('E-mail').fill(newcomer);
    await other.getByLabel('Password').fill(NEW_PASSWORD);
    await other.getByRole('button', { name: 'Sign in' }).click();
    // A set member: the day's pages only, no second step asked.
    await expect(other.getByRole('heading', { name: /^Run sheet:/ })).toBeVisible({ timeout: 30_000 });
    await expect(other.getByRole('navigation', { name: 'Staff' }).getByRole('link')).toHaveText([
      'Run sheet',
      'Check in',
      'Walk-in',
      'Photos',
    ]);
    await expectNoAxeViolations(other, 'set member run sheet');

    // The same member on a phone too; "Sign out everywhere" on the first device ends both sessions.
    const phoneContext = await browser.newContext({ viewport: NARROW, locale: 'en-AU' });
    const phone = await phoneContext.newPage();
    await signIn(phone, newcomer, NEW_PASSWORD);
    await expect(phone.getByRole('heading', { name: /^Run sheet:/ })).toBeVisible({ timeout: 30_000 });
    expect(await hasHorizontalScroll(phone)).toBe(false);
    await phone.screenshot({ path: `${DIR}/390-set-member-header.png` });
    await openStaffMenu(other);
    await other.getByRole('button', { name: 'Sign out everywhere' }).click();
    await expect(other.getByText('You are signed out on every device.')).toBeVisible();
    await expect(other.getByRole('button', { name: 'Sign in' })).toBeVisible();
    await expectNoAxeViolations(other, 'signed out everywhere');
    await other.screenshot({ path: `${DIR}/1280-signed-out-everywhere.png`, fullPage: true });
    // The phone's session is gone: opening the app again asks for the password.
    await phone.reload();
    await expect(phone.getByRole('button', { name: 'Sign in' })).toBeVisible({ timeout: 30_000 });
    await phoneContext.close();
    await theirs.close();
  },
);
