import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { appCheckToken, hasHorizontalScroll, SCREENSHOT_DIR } from './app';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
export const SYDNEY = 'Kringle Sydney, Pitt Street';
export const CARDS = {
  success: '4242 4242 4242 4242',
  declined: '4000 0000 0000 0002',
  insufficientFunds: '4000 0000 0000 9995',
  threeDSecure: '4000 0025 0000 3155',
} as const;

export const stepHeading = (page: Page) => page.locator('#wizard-step-title');

/** axe (WCAG 2.2 AA) finds nothing, and nothing scrolls sideways. */
export async function expectAccessible(page: Page, label: string) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
  expect(
    results.violations.map((v) => `${label}: ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
  ).toEqual([]);
  expect(await hasHorizontalScroll(page), `${label}: no sideways scroll`).toBe(false);
}

export async function shot(page: Page, name: string) {
  const width = page.viewportSize()?.width ?? 0;
  // What the parent sees on screen where the step begins (sticky bars in place), and the whole page.
  const scrolled = await page.evaluate(() => window.scrollY);
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: `${SCREENSHOT_DIR}/purchase/${width}-${name}.png` });
  await page.evaluate((y) => window.scrollTo(0, y), scrolled);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/purchase/${width}-${name}-full.png`, fullPage: true });
}

/**
 * On the Session step, chooses the open day at `index` (0 = the first with sessions left) and
 * waits for its sessions. Parallel specs keep to their own days: purchases 1 to 4, the wizard's
 * own tests 5, reschedules 6. A later day has a whole day of sessions at any time of day.
 */
export async function chooseOpenDay(page: Page, index: number): Promise<void> {
  await chooseOpenDate(page, index);
}

/** chooseOpenDay, returning the day it chose (the location's date). */
export async function chooseOpenDate(page: Page, index: number): Promise<string> {
  const day = page
    .locator('button[data-date]:not([aria-disabled="true"]):not([aria-label*="fully booked"])')
    .nth(index);
  const date = (await day.getAttribute('data-date'))!;
  const loaded = page.waitForResponse((r) => r.url().includes('/available-slots') && r.url().includes(`date=${date}`));
  await day.click();
  await loaded;
  await expect(day).toHaveAttribute('aria-pressed', 'true');
  await expect(page.locator('[data-status="available"]').first()).toBeVisible();
  return date;
}

/**
 * Location, type and a free session, up to the Package step. Parallel tests share one season:
 * each takes its own later day (the wizard's own tests use the first open day) and a random
 * free session there, and tries another one if it was just taken.
 */
export async function holdASession(page: Page, options: { daysAhead?: number } = {}) {
  await toSessionStep(page);
  const free = page.locator('[data-status="available"]');
  await expect(free.first()).toBeVisible();
  // A later day, so that the policy's deadlines are still ahead and spelled out.
  if (options.daysAhead) await chooseOpenDay(page, options.daysAhead);
  for (let attempt = 0; attempt < 4; attempt++) {
    const count = await free.count();
    await free.nth(Math.floor(Math.random() * count)).click();
    const reached = await stepHeading(page)
      .filter({ hasText: 'Choose your photo package' })
      .waitFor({ timeout: 5_000 })
      .then(() => true)
      .catch(() => false);
    if (reached) return;
  }
  throw new Error('could not hold a session');
}

/** Opens the wizard and goes to the Session step: Sydney, Santa photos. */
export async function toSessionStep(page: Page) {
  await page.goto('/create-booking');
  await expect(stepHeading(page)).toHaveText('Where would you like to visit Santa?', { timeout: 20_000 });
  await page.getByRole('button', { name: new RegExp(`^${SYDNEY}`) }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(stepHeading(page)).toHaveText('What kind of visit?');
  await page.getByRole('button', { name: /^Santa photos/ }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(stepHeading(page)).toHaveText('Choose a day and time');
}

export async function fillCard(page: Page, number: string) {
  await page.getByLabel('Card number').fill(number);
  await page.getByLabel('Expiry date').fill('12 / 30');
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Holly Berry');
}

/** Package (one Classic Print) and Policy (accepted), up to the Overview step. */
export async function toOverview(page: Page) {
  await page.getByRole('radio', { name: /^Classic Print/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(stepHeading(page)).toHaveText('Our booking policy');
  await page.getByRole('checkbox', { name: /accept the booking policy/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(stepHeading(page)).toHaveText('Check your booking');
}

/** From the Overview: on to Payment, pay with the card that succeeds; the booking's reference from the success page. */
export async function payFromOverview(page: Page): Promise<string> {
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(stepHeading(page)).toHaveText('Payment');
  await fillCard(page, CARDS.success);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page.getByRole('heading', { name: "You're booked in to see Santa!" })).toBeVisible({ timeout: 30_000 });
  return (await page.getByTestId('booking-reference').textContent())!.trim();
}

/** Package (one Classic Print), Policy (accepted) and Overview, up to the Payment step. */
export async function chooseAndCheckOut(page: Page) {
  await toOverview(page);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(stepHeading(page)).toHaveText('Payment');
}

/** The customer's upcoming bookings through the API (My Bookings is a later issue). */
export async function upcomingReferences(
  page: Page,
  email: string,
  password: string,
): Promise<{ reference: string; status: string }[]> {
  const token = await appCheckToken(page.request);
  const headers: Record<string, string> = token ? { 'X-App-Check': token } : {};
  const signIn = await page.request.post('/api/v1/auth/sign-in', { data: { email, password }, headers });
  const { idToken } = (await signIn.json()) as { idToken: string };
  const res = await page.request.get('/api/v1/bookings/upcoming-bookings', {
    headers: { ...headers, Authorization: `Bearer ${idToken}` },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { items: { reference: string; status: string }[] }).items;
}
