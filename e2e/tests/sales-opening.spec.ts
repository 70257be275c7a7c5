import { expect, test } from '@playwright/test';
import { addDays, localDateOf, localTimeOf } from '@kringle/contracts/dates';
import { demoSeason } from '../../apps/api/src/modules/catalogue/demo-season';
import { loadSeason, SCREENSHOT_DIR } from '../helpers/app';
import { expectAccessible, stepHeading } from '../helpers/purchase';
import { apiCustomer, signInFreshCustomer } from '../helpers/wizard';

const ZONE = 'Australia/Brisbane';
const NAME = 'Kringle Opening Day, Brisbane';

/**
 * Issue 14: an operator loads a season whose location opens at the next whole minute at least
 * 30 s away (the file's times have no seconds), then a family watches the Session step count
 * down and sell at the instant, without a reload. The location is the demo's Brisbane one under
 * another slug and name, so the other journeys' locations are untouched.
 */
test('a season that opens a minute after loading: the Session step counts down and sells at the instant', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  const at = new Date(Math.ceil((Date.now() + 30_000) / 60_000) * 60_000);
  const salesOpenAt = `${localDateOf(at, ZONE)}T${localTimeOf(at, ZONE)}`;
  const season = demoSeason(new Date(), { days: 42 });
  const today = localDateOf(new Date(), ZONE);
  // No closed days (the demo's Christmas Day): the calendar's second day below must have sessions, on 24 December too.
  const location = {
    ...season.locations.find((l) => l.timezone === ZONE)!,
    slug: 'opening-day-brisbane',
    name: NAME,
    seasonStart: today,
    seasonEnd: addDays(today, 6),
    closedDates: [],
    salesOpenAt,
    queue: { opensMinutesBefore: 0 },
  };
  loadSeason({ ...season, locations: [location] });

  // Before the instant the API refuses a hold, naming the local opening time.
  const other = await apiCustomer(page.request, baseURL!, 'opening-api');
  const { items: locations } = await other.get<{ items: { id: string; name: string; salesOpenAt: string | null }[] }>(
    '/common/locations',
  );
  const opening = locations.find((l) => l.name === NAME)!;
  expect(opening.salesOpenAt).toBe(at.toISOString());
  let session: { id: string; status: string } | undefined;
  for (let day = 1; !session && day < 4; day++) {
    const slots = await other.get<{ items: { id: string; kind: string; status: string }[] }>(
      `/booking-slot/${opening.id}/available-slots?date=${addDays(today, day)}`,
    );
    session = slots.items.find((s) => s.kind === 'session');
  }
  if (!session) throw new Error('no session in the next three days');
  expect(session.status).toBe('unavailable');
  const refused = await other.post('/bookings/reservation', { slotId: session.id });
  expect(refused.status()).toBe(409);
  expect(await refused.json()).toMatchObject({
    code: 'SALES_NOT_OPEN',
    error: expect.stringMatching(/AEST/) as unknown,
  });

  await page.setViewportSize({ width: 390, height: 844 });
  await signInFreshCustomer(page, baseURL!, 'opening');
  await page.goto('/create-booking');
  await expect(page.getByText(/^Bookings open /).first()).toBeVisible({ timeout: 20_000 });
  await page.getByRole('button', { name: new RegExp(`^${NAME}`) }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByRole('button', { name: /^Santa photos/ }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(stepHeading(page)).toHaveText('Choose a day and time');

  const status = page.getByRole('status').filter({ hasText: /^Bookings (open|are open)/ });
  await expect(status).toHaveText(/^Bookings open .* AEST\.$/);
  await expect(page.getByTestId('opening-countdown')).toHaveText(/^0:[0-9]{2}$|^1:[0-9]{2}$/);
  // Every day can be looked at; no session can be taken yet.
  await page.locator('button[data-date]').nth(1).click();
  await expect(page.locator('[data-slot-id]').first()).toBeVisible();
  await expect(page.locator('[data-status="available"]')).toHaveCount(0);
  await expect(page.getByText('Opens soon').first()).toBeVisible();
  await expectAccessible(page, 'session step before the opening');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/sales-opening/390-before.png` });

  // The instant: the step sells, with no reload (the page's own navigation count stays at one).
  const navigations = await page.evaluate(() => performance.getEntriesByType('navigation').length);
  await expect(status).toHaveText('Bookings are open. Choose a time below.', { timeout: 100_000 });
  await expect(page.locator('[data-status="available"]').first()).toBeVisible({ timeout: 15_000 });
  expect(await page.evaluate(() => performance.getEntriesByType('navigation').length)).toBe(navigations);
  await page.screenshot({ path: `${SCREENSHOT_DIR}/sales-opening/390-open.png` });
  await page.locator('[data-status="available"]').first().click();
  await expect(stepHeading(page)).toHaveText('Choose your photo package');
});
