import { expect, test, type APIRequestContext, type Browser, type Page } from '@playwright/test';
import { addDays, localDateOf, localTimeOf } from '@kringle/contracts/dates';
import { demoSeason } from '../../apps/api/src/modules/catalogue/demo-season';
import { appCheckToken, loadSeason, SCREENSHOT_DIR } from '../helpers/app';
import { CARDS, expectAccessible, fillCard, stepHeading } from '../helpers/purchase';
import { apiCustomer, signInFreshCustomer } from '../helpers/wizard';

const ZONE = 'Australia/Brisbane';
const NAME = 'Kringle Choose First, Brisbane';

/**
 * Issue 55, "choose before the opening" (decision 0116): three families join at 390 px, two of them
 * choosing their session type, day, time of day, package and who's coming; the draw; each of those
 * two lands on Payment holding a session it chose, the first pays; the third, offline for a minute
 * across the opening, keeps its place and is admitted to choose.
 */
test('two families choose before the opening and land on Payment holding their choice', async ({
  browser,
  baseURL,
  request,
}) => {
  test.setTimeout(300_000);
  const at = new Date(Math.ceil((Date.now() + 70_000) / 60_000) * 60_000);
  const season = demoSeason(new Date(), { days: 42 });
  const tomorrow = addDays(localDateOf(new Date(), ZONE), 1);
  // Three sessions tomorrow morning (10:00, 10:10, 10:20) and one in the afternoon nobody chose.
  const location = {
    ...season.locations.find((l) => l.timezone === ZONE)!,
    slug: 'choose-first-brisbane',
    name: NAME,
    seasonStart: tomorrow,
    seasonEnd: tomorrow,
    closedDates: [],
    breaks: [],
    sessions: [
      { slotType: 'standard', days: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'], hours: '10:00-10:30' },
      { slotType: 'standard', days: ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'], hours: '15:00-15:10' },
    ],
    salesOpenAt: `${localDateOf(at, ZONE)}T${localTimeOf(at, ZONE)}`,
    queue: { opensMinutesBefore: 10 },
  } as (typeof season.locations)[number];
  loadSeason({ ...season, locations: [...season.locations, location] });
  const reader = await apiCustomer(request, baseURL!, 'choose-first-api');
  const { items } = await reader.get<{ items: { id: string; name: string }[] }>('/common/locations');
  const place = items.find((l) => l.name === NAME)!;

  const families: Page[] = [];
  const logins: { email: string; password: string }[] = [];
  for (let i = 0; i < 3; i++) {
    const family = await familyPage(browser, baseURL!, `choose-first-${i}`);
    families.push(family.page);
    logins.push(family.login);
  }
  for (const page of families) {
    await page.goto(`/queue/${place.id}`);
    await page.getByRole('button', { name: 'Join the line' }).click();
    await expect(page.getByTestId('queue-ticket')).toHaveAttribute('data-status', 'before_open');
  }

  // Two families choose: a Santa photos session tomorrow morning, one Classic Print, the policy accepted.
  for (const [i, page] of families.slice(0, 2).entries()) {
    const choices = page.getByTestId('queue-choices');
    await choices.getByRole('radio', { name: /^Santa photos/ }).check();
    await choices.getByLabel('Day', { exact: true }).selectOption(tomorrow);
    await choices.getByLabel('Time of day', { exact: true }).selectOption({ label: 'Morning (before 12 pm)' });
    await choices.getByRole('button', { name: 'Add one Classic Print' }).click();
    if (i === 0) {
      // Saving without the policy accepted says why and saves nothing.
      await choices.getByRole('button', { name: 'Save my choices' }).click();
      await expect(choices.getByRole('alert')).toHaveText('Accept the booking policy and the terms and conditions.');
      await expectAccessible(page, 'waiting room, choosing');
      await page.screenshot({ path: `${SCREENSHOT_DIR}/fair-start/390-choices.png`, fullPage: true });
    }
    await choices.getByRole('checkbox', { name: /accept the booking policy/ }).check();
    await choices.getByRole('button', { name: 'Save my choices' }).click();
    await expect(page.getByTestId('queue-choices-summary')).toContainText(
      'At your turn we hold the first free Santa photos session on',
    );
  }
  await families[0]!.screenshot({ path: `${SCREENSHOT_DIR}/fair-start/390-choices-saved.png`, fullPage: true });

  // The third goes offline for a minute across the opening: its place is kept (5 minutes).
  const offline = families[2]!;
  await offline.setViewportSize({ width: 1280, height: 900 });
  await offline.screenshot({ path: `${SCREENSHOT_DIR}/fair-start/1280-choices.png`, fullPage: true });
  await offline.setViewportSize({ width: 390, height: 844 });
  await offline.context().setOffline(true);
  const offlineSince = Date.now();

  const held = new Set<string>();
  for (const [i, page] of families.slice(0, 2).entries()) {
    await expect(stepHeading(page)).toHaveText('Payment', { timeout: 150_000 });
    await expect(page.getByText(/^Amount to pay/)).toBeVisible();
    // The family's own unpaid checkout, on a session it chose: tomorrow morning.
    const [hold] = await liveHolds(request, logins[i]!);
    expect(hold).toMatchObject({ locationId: place.id, status: 'checked_out' });
    const slot = await reader.get<{ startAt: string }>(`/booking-slot/${place.id}/slots/${hold!.slotId}`);
    expect(localDateOf(new Date(slot.startAt), ZONE)).toBe(tomorrow);
    expect(localTimeOf(new Date(slot.startAt), ZONE) < '12:00').toBe(true);
    held.add(hold!.slotId);
  }
  // Two different sessions, one each.
  expect(held.size).toBe(2);
  await expectAccessible(families[0]!, 'payment after the waiting room');
  await families[0]!.screenshot({ path: `${SCREENSHOT_DIR}/fair-start/390-choices-payment.png`, fullPage: true });
  await fillCard(families[0]!, CARDS.success);
  await families[0]!.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(families[0]!.getByRole('heading', { name: "You're booked in to see Santa!" })).toBeVisible({
    timeout: 30_000,
  });

  await offline.waitForTimeout(Math.max(0, 60_000 - (Date.now() - offlineSince)));
  await offline.context().setOffline(false);
  await expect(offline.getByTestId('queue-ticket')).toHaveAttribute('data-status', 'admitted', { timeout: 20_000 });
  await expect(offline.getByRole('button', { name: 'Choose a session' })).toBeVisible();
});

async function familyPage(browser: Browser, baseURL: string, tag: string) {
  const context = await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const login = await signInFreshCustomer(page, baseURL, tag);
  return { page, login };
}

/** The family's live holds and unpaid checkouts, read in a session of its own (the page's stays as it is). */
async function liveHolds(request: APIRequestContext, login: { email: string; password: string }) {
  const token = await appCheckToken(request);
  const check: Record<string, string> = token ? { 'X-App-Check': token } : {};
  const signIn = await request.post('/api/v1/auth/sign-in', { data: login, headers: check });
  const { idToken } = (await signIn.json()) as { idToken: string };
  const res = await request.get('/api/v1/bookings/reservation', {
    headers: { Authorization: `Bearer ${idToken}`, ...check },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return ((await res.json()) as { items: { slotId: string; locationId: string; status: string }[] }).items;
}
