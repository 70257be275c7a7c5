import AxeBuilder from '@axe-core/playwright';
import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { appCheckToken } from './app';

export const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
export const NARROW = { width: 390, height: 844 };
export const WIDE = { width: 1280, height: 800 };
/**
 * Resolved from this file, not the working directory, so `npm test -w e2e` and `npx playwright test -c e2e/...` agree.
 */
export const ACCOUNT_SCREENSHOTS = fileURLToPath(new URL('../../test-results/screenshots/accounts', import.meta.url));
export const STRONG_PASSWORD = 'Mistletoe-Lane-42';

/** A fresh address per test and run, so journeys never meet each other's accounts. */
export function uniqueEmail(tag: string): string {
  return `${tag}-${Date.now().toString(36)}-${randomUUID().slice(0, 8)}@example.com`;
}

interface OutboxItem {
  id: string;
  to: string;
  subject: string;
  text: string;
  createdAt: string;
}

/**
 * Waits for an e-mail to `to` whose subject matches, in the dev outbox (newest first), and
 * returns the `/verify?...` link from its text. `notId` skips a mail already used.
 */
export async function actionLinkFromOutbox(
  request: APIRequestContext,
  to: string,
  subject: RegExp,
  options: { notId?: string } = {},
): Promise<{ link: string; id: string }> {
  let found: OutboxItem | undefined;
  await expect
    .poll(
      async () => {
        const response = await request.get(`/api/v1/dev/outbox?to=${encodeURIComponent(to)}`);
        if (!response.ok()) return null;
        const { items } = (await response.json()) as { items: OutboxItem[] };
        found = items.find((item) => subject.test(item.subject) && item.id !== options.notId);
        return found?.id ?? null;
      },
      { timeout: 15_000, message: `an email to ${to} matching ${subject}` },
    )
    .not.toBeNull();
  const match = /https?:\/\/\S+\/verify\?\S+/.exec(found!.text);
  if (!match) throw new Error(`no /verify link in the email text:\n${found!.text}`);
  return { link: match[0], id: found!.id };
}

/** The path and query of a link, so the test opens it on the test server's own origin. */
export const pathOf = (link: string) => {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
};

/**
 * Axe with the WCAG 2.2 AA tags, toasts included (their colours are set for AA in index.css). Toasts
 * mount and finite animations end first: a toast still fading in over the red header read as low
 * contrast (color-contrast on its title, twice in one CI run).
 */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  // A toast is in the page at opacity 0 (Playwright's "visible") until sonner marks it mounted.
  await expect(page.locator('[data-sonner-toast][data-mounted="false"]')).toHaveCount(0);
  await page.evaluate(() =>
    Promise.all(
      document
        .getAnimations()
        .filter((a) => a.effect?.getComputedTiming().endTime !== Infinity)
        .map((a) => a.finished.catch(() => undefined)),
    ),
  );
  const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
  expect(
    results.violations.map((v) => `${label}: ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
}

/** Full-page screenshot for people to look at (not compared). */
export async function shot(page: Page, name: string): Promise<void> {
  const width = page.viewportSize()?.width ?? 0;
  await page.screenshot({ path: `${ACCOUNT_SCREENSHOTS}/${width}-${name}.png`, fullPage: true });
}

export async function hasHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

/** DESIGN.md: nothing scrolls sideways at 320 px. Checks the current screen, then puts the viewport back. */
export async function expectNoSidewaysScrollAt320(page: Page): Promise<void> {
  const before = page.viewportSize();
  await page.setViewportSize({ width: 320, height: 640 });
  expect(await hasHorizontalScroll(page)).toBe(false);
  if (before) await page.setViewportSize(before);
}

/** Events the app recorded through its analytics no-op sink (window.__kringleAnalytics). */
export async function analyticsEvents(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    ((window as unknown as { __kringleAnalytics?: { event: string }[] }).__kringleAnalytics ?? []).map((e) => e.event),
  );
}

export async function registerThroughForm(
  page: Page,
  account: { email: string; password: string; firstName?: string; lastName?: string },
): Promise<void> {
  await page.getByLabel('First name').fill(account.firstName ?? 'Holly');
  await page.getByLabel('Last name').fill(account.lastName ?? 'Winters');
  await page.getByLabel('Email address').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByRole('button', { name: 'Create account' }).click();
}

export async function logInThroughForm(page: Page, email: string, password: string): Promise<void> {
  await page.getByLabel('Email address').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
}

/** Creates a customer through the API (with an app-check token, as the web app would). */
export async function createAccountThroughApi(
  request: APIRequestContext,
  email: string,
  password = STRONG_PASSWORD,
): Promise<void> {
  const token = await appCheckToken(request);
  const response = await request.post('/api/v1/user', {
    data: { email, password, firstName: 'Noel', lastName: 'Frost' },
    headers: token ? { 'X-App-Check': token } : {},
  });
  if (response.status() !== 201) throw new Error(`register failed: ${response.status()} ${await response.text()}`);
}
