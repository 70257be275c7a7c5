import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { SCREENSHOT_DIR, signInThroughApi } from '../helpers/app';
import { bookThroughApi, customerClient } from '../helpers/bookings';
import { chooseOpenDay, holdASession, stepHeading, toOverview, toSessionStep } from '../helpers/purchase';
import { newStaffMember, STAFF_PASSWORD } from '../helpers/staff-mfa';
import { signInFreshCustomer } from '../helpers/wizard';

/** WCAG 2.2 AA's new criteria, one test each (issue 51, docs/compliance.md section 8). */

const DIR = `${SCREENSHOT_DIR}/wcag22`;
const WIDTHS = [390, 1280] as const;
mkdirSync(DIR, { recursive: true });

/** The layout follows a resize within its throttle (spec §9: 2 s): the tab bar or the sidebar. */
async function resize(page: Page, width: number) {
  await page.setViewportSize({ width, height: width > 800 ? 800 : 844 });
  await expect(page.getByTestId(width > 800 ? 'sidebar' : 'bottom-tab-bar')).toBeVisible();
}

/**
 * Whether the focused element shows at all (2.4.11 asks that it is not entirely hidden by the page's own content):
 * some point of a 5 × 3 grid over it is the element itself, not a sticky bar, the tab bar or the Help button.
 */
const focusShows = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return { name: 'body', shows: true };
    const r = el.getBoundingClientRect();
    const label = (el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40);
    const name = `${el.tagName.toLowerCase()} "${label}"`;
    for (const fx of [0.1, 0.3, 0.5, 0.7, 0.9])
      for (const fy of [0.2, 0.5, 0.8]) {
        const hit = document.elementFromPoint(r.left + r.width * fx, r.top + r.height * fy);
        if (hit && (hit === el || el.contains(hit) || hit.contains(el))) return { name, shows: true };
      }
    return { name, shows: false, top: r.top, bottom: r.bottom };
  });

test('2.4.11 Focus Not Obscured: no focused control hides under the sticky countdown or the bottom bars', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(150_000);
  await page.setViewportSize({ width: 390, height: 844 });
  await signInFreshCustomer(page, baseURL!, 'focus');
  await holdASession(page, { daysAhead: 15 });
  await page.getByRole('radio', { name: /^Classic Print/ }).check();
  // The Package step on a phone (its choices scroll under the countdown and above the action bar), then Overview
  // on a phone and on a wide screen (its fields under the sticky bars, above the floating Help).
  await expectFocusAlwaysShows(page, '390 px, Package');
  await page.getByRole('button', { name: 'Continue' }).first().click();
  await expect(stepHeading(page)).toHaveText('Our booking policy');
  await page.getByRole('checkbox', { name: /accept the booking policy/ }).check();
  await page.getByRole('button', { name: 'Continue' }).first().click();
  await expect(stepHeading(page)).toHaveText('Check your booking');
  await expectFocusAlwaysShows(page, '390 px, Overview');
  await resize(page, 1280);
  await expectFocusAlwaysShows(page, '1280 px, Overview');
});

/** From the step's heading, 45 presses of Tab: each focused control shows. */
async function expectFocusAlwaysShows(page: Page, where: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.locator('#wizard-step-title').focus();
  const hidden: string[] = [];
  for (let i = 0; i < 45; i++) {
    await page.keyboard.press('Tab');
    const seen = await focusShows(page);
    if (!seen.shows) hidden.push(`${seen.name} (${seen.top}-${seen.bottom})`);
  }
  expect(hidden, where).toEqual([]);
}

test('2.5.8 Target Size: every day of the calendar and every session of the grid is at least 24 × 24 px', async ({
  page,
  baseURL,
}) => {
  await signInFreshCustomer(page, baseURL!, 'targets');
  await page.setViewportSize({ width: 390, height: 844 });
  await toSessionStep(page);
  await chooseOpenDay(page, 2);
  for (const width of WIDTHS) {
    await resize(page, width);
    const sizes = await page.evaluate(() =>
      Array.from(document.querySelectorAll<HTMLElement>('button[data-date], [data-slot-id]')).map((el) => {
        const r = el.getBoundingClientRect();
        return { what: el.dataset.date ?? el.dataset.slotId, width: r.width, height: r.height };
      }),
    );
    const days = sizes.filter((s) => s.what?.length === 10).length;
    expect(days, 'calendar days').toBeGreaterThan(6);
    expect(sizes.length - days, 'sessions').toBeGreaterThan(6);
    expect(
      sizes.filter((s) => s.width < 24 || s.height < 24),
      `${width} px`,
    ).toEqual([]);
    await page.screenshot({ path: `${DIR}/${width}-targets.png`, fullPage: true });
  }
});

test('3.2.6 Consistent Help: one Help, in the same place, on every page of the signed-in app', async ({ page }) => {
  await signInThroughApi(page);
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: width > 800 ? 800 : 844 });
    // On a phone the wizard's launcher is the tab bar's Help (spec §2, decision 0107): the same box as elsewhere.
    const paths = ['/bookings', '/packages', '/create-booking', '/bookings'];
    const places: { path: string; x: number; y: number; w: number; h: number }[] = [];
    for (const path of paths) {
      await page.goto(path);
      await expect(page.locator('#main')).toBeVisible({ timeout: 20_000 });
      const help = page.getByRole('button', { name: 'Help', exact: true });
      await expect(help).toHaveCount(1);
      await expect(help).toBeVisible();
      const box = (await help.boundingBox())!;
      places.push({ path, x: box.x, y: box.y, w: box.width, h: box.height });
    }
    // Bottom right, and the very same box on every page.
    for (const p of places) {
      expect(p.x + p.w, `${width} px ${p.path}: right`).toBeGreaterThan(width * 0.75);
      expect(p.y, `${width} px ${p.path}: bottom`).toBeGreaterThan((width > 800 ? 800 : 844) * 0.8);
      expect(p, `${width} px ${p.path}`).toEqual({ ...places[0]!, path: p.path });
    }
  }
});

test("3.3.7 Redundant Entry: the last booking's children are offered again in Who's coming", async ({
  page,
  baseURL,
  request,
}) => {
  test.setTimeout(120_000);
  await page.setViewportSize({ width: 390, height: 844 });
  const customer = await signInFreshCustomer(page, baseURL!, 'again');
  const api = await customerClient(request, customer.email, customer.password);
  const booked = await bookThroughApi(api, request, { daysAhead: 16 });
  await api.put(`/bookings/${booked.id}/details`, {
    children: [
      { firstName: 'Mia', age: 6 },
      { firstName: 'Leo', age: 3 },
    ],
    adults: 2,
    pets: 0,
    accessNeeds: [],
  });
  await holdASession(page, { daysAhead: 17 });
  await toOverview(page);
  const form = page.getByRole('form', { name: "Who's coming" });
  await expect(page.getByText(/From your last booking: check it is still right\./)).toBeVisible();
  await expect(form.getByLabel('First name').nth(0)).toHaveValue('Mia');
  await expect(form.getByLabel('Age').nth(0)).toHaveValue('6');
  await expect(form.getByLabel('First name').nth(1)).toHaveValue('Leo');
  await expect(form.getByLabel('Age').nth(1)).toHaveValue('3');
  await page.screenshot({ path: `${DIR}/390-redundant-entry.png`, fullPage: true });
});

/** Pastes `text` into the focused field with the keyboard, as a password manager or a person does. */
async function pasteInto(page: Page, label: string | RegExp, text: string) {
  const field = page.getByLabel(label, { exact: typeof label === 'string' }).first();
  await field.focus();
  await page.evaluate((t) => navigator.clipboard.writeText(t), text);
  await page.keyboard.press('ControlOrMeta+V');
  await expect(field, `paste into ${String(label)}`).toHaveValue(text);
  // Named for password managers, so they can fill it.
  expect(await field.getAttribute('autocomplete'), String(label)).toMatch(/password|one-time-code|username|email/);
}

test('3.3.8 Accessible Authentication: paste works in every password and code field, the TOTP code included', async ({
  page,
  context,
  browser,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  // Signed in: the profile's change of password, and the password that confirms a deletion.
  await signInThroughApi(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto('/bookings');
  await page.getByRole('button', { name: 'Change password' }).click();
  await pasteInto(page, 'Current password', 'Pasted-Password-2026!');
  await pasteInto(page, 'New password', 'Another-Pasted-2026!');
  await page.keyboard.press('Escape');
  await page.getByRole('button', { name: 'Your data' }).click();
  await page.getByRole('button', { name: 'Delete my account' }).click();
  await pasteInto(page, 'Your password', 'Pasted-Password-2026!');
  await page.keyboard.press('Escape');

  // Signed out, in a browser of its own: sign-in and sign-up.
  const visitor = await browser.newContext();
  await visitor.grantPermissions(['clipboard-read', 'clipboard-write']);
  const door = await visitor.newPage();
  for (const path of ['/login', '/register']) {
    await door.goto(path);
    await pasteInto(door, 'Password', 'Pasted-Password-2026!');
  }
  await visitor.close();

  // Staff: the password, then the code from the authenticator app (TOTP), at enrolment.
  const staff = await browser.newContext();
  await staff.grantPermissions(['clipboard-read', 'clipboard-write']);
  const desk = await staff.newPage();
  const email = await newStaffMember(desk, 'support', 'paste');
  await desk.goto('/staff');
  await desk.getByLabel('E-mail').fill(email);
  await pasteInto(desk, 'Password', STAFF_PASSWORD);
  await desk.getByRole('button', { name: 'Sign in' }).click();
  await expect(desk.getByRole('heading', { name: 'Set up your sign-in code' })).toBeVisible({ timeout: 30_000 });
  await pasteInto(desk, 'Code from the app', '123456');
  await staff.close();
});
