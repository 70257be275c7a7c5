import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { addDays, localDateOf, localTimeOf } from '@kringle/contracts/dates';
import { demoSeason } from '../../apps/api/src/modules/catalogue/demo-season';
import { loadSeason, SCREENSHOT_DIR } from '../helpers/app';
import { expectAccessible } from '../helpers/purchase';
import { signInFreshCustomer } from '../helpers/wizard';

const ZONE = 'Australia/Perth';
const NAME = 'Kringle Step One Line, Perth';
const DIR = `${SCREENSHOT_DIR}/fair-start`;

/**
 * Issue 53 item 10: a family that never joined a centre's waiting room learned it only when it
 * picked a time (409 QUEUE_NOT_ADMITTED). Step 1 now says so when the centre is chosen, with the
 * way in; and once in the line, it says its place instead. At 390 and 1280 px, axe clean.
 */
test.beforeAll(() => {
  // Sales open two to three hours from now, the line open already (it opens three hours before).
  // On the whole hour: another worker's load names the same instant, so it keeps the line and its places.
  const at = new Date(Math.ceil((Date.now() + 2 * 3600_000) / 3600_000) * 3600_000);
  const season = demoSeason(new Date(), { days: 42 });
  const tomorrow = addDays(localDateOf(new Date(), ZONE), 1);
  const location = {
    ...season.locations.find((l) => l.timezone === ZONE)!,
    slug: 'queue-step-one-perth',
    name: NAME,
    seasonStart: tomorrow,
    seasonEnd: addDays(tomorrow, 3),
    closedDates: [],
    salesOpenAt: `${localDateOf(at, ZONE)}T${localTimeOf(at, ZONE)}`,
    queue: { opensMinutesBefore: 180 },
  } as (typeof season.locations)[number];
  loadSeason({ ...season, locations: [...season.locations, location] });
});

for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test(`step 1 at ${viewport.width} px tells a family not in the waiting room to join it, then its place`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(120_000);
    mkdirSync(DIR, { recursive: true });
    await page.setViewportSize(viewport);
    await signInFreshCustomer(page, baseURL!, `step-one-${viewport.width}`);
    await page.goto('/create-booking');
    await page.getByRole('button', { name: new RegExp(`^${NAME}`) }).click();
    const notice = page.getByTestId('queue-step-notice');
    await expect(notice).toHaveAttribute('data-state', 'not-in-line');
    await expect(notice).toContainText(`${NAME} opens bookings through a waiting room, and you are not in it yet.`);
    await expect(notice).toContainText('You need a place in the line to pick a time.');
    await expectAccessible(page, `step 1 not in the line ${viewport.width}`);
    await notice.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${DIR}/${viewport.width}-step-one-not-in-line.png` });

    await notice.getByRole('link', { name: 'Join the waiting room' }).click();
    await page.getByRole('button', { name: 'Join the line' }).click();
    await expect(page.getByTestId('queue-ticket')).toHaveAttribute('data-status', 'before_open');
    await page.goBack();
    await expect(page.getByTestId('queue-step-notice')).toHaveAttribute('data-state', 'in-line', { timeout: 15_000 });
    await expect(page.getByTestId('queue-step-notice')).toContainText(`You are in ${NAME}'s waiting room.`);
    await expectAccessible(page, `step 1 in the line ${viewport.width}`);
    await page.screenshot({ path: `${DIR}/${viewport.width}-step-one-in-line.png` });
  });
}
