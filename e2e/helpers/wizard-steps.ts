import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';
import { SCREENSHOT_DIR } from './app';
import { chooseOpenDate } from './purchase';

/** The booking wizard's steps as the journeys drive them (booking-wizard.spec.ts, wizard-hold.spec.ts). */

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
export const VIEWPORTS = [
  { name: 'wide', width: 1280, height: 800 },
  { name: 'narrow', width: 390, height: 844 },
] as const;
export const SYDNEY = 'Kringle Sydney, Pitt Street';

export async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

export async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SCREENSHOT_DIR}/wizard-${name}.png`, fullPage: true });
}

export const stepHeading = (page: Page) => page.locator('#wizard-step-title');
export const currentStep = (page: Page) =>
  page.getByRole('navigation', { name: 'Booking steps' }).locator('[aria-current="step"]');

/** Opens the wizard; the first load waits for the session restore and app check, slow under parallel load. */
export async function openWizard(page: Page) {
  await page.goto('/create-booking');
  await expect(stepHeading(page)).toHaveText('Where would you like to visit Santa?', { timeout: 20_000 });
}

/**
 * Tests run in parallel on one season: each picks a different free session of the same day,
 * so they do not take each other's session between reading the list and clicking.
 */
export const freeSession = (page: Page, lane: number) => page.locator('[data-status="available"]').nth(lane * 2);

/** A whole day of sessions with Santa's break, whatever the time of day the suite runs (today may have a few left). */
export const chooseWholeDay = (page: Page) => chooseOpenDate(page, 5);

export async function chooseLocationAndType(page: Page, type = 'Santa photos') {
  await openWizard(page);
  await page.getByRole('button', { name: new RegExp(`^${SYDNEY}`) }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(stepHeading(page)).toHaveText('What kind of visit?');
  await page.getByRole('button', { name: new RegExp(`^${type}`) }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(stepHeading(page)).toHaveText('Choose a day and time');
  await chooseWholeDay(page);
}

/** Seconds shown by the countdown ("9:58" → 598). */
export async function countdownSeconds(page: Page): Promise<number> {
  const text = (await page.getByRole('timer').textContent()) ?? '';
  const [m, s] = text.split(':').map(Number);
  return m! * 60 + s!;
}
