import { expect, test, type Page } from '@playwright/test';
import { zonedToInstant, zoneAbbreviation } from '@kringle/contracts/dates';
import { hasHorizontalScroll, SCREENSHOT_DIR } from '../helpers/app';
import { apiCustomer, recordedEvents, signInFreshCustomer } from '../helpers/wizard';
import {
  VIEWPORTS,
  SYDNEY,
  expectNoAxeViolations,
  shot,
  stepHeading,
  currentStep,
  openWizard,
  freeSession,
  chooseWholeDay,
  chooseLocationAndType,
  countdownSeconds,
} from '../helpers/wizard-steps';

for (const viewport of VIEWPORTS) {
  test(`a customer reaches the Package step with a running countdown at ${viewport.width} px`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(180_000); // four axe runs, slow on a busy machine
    await page.setViewportSize(viewport);
    await signInFreshCustomer(page, baseURL!, `reach-${viewport.width}`);
    // The calendar crosses out a closed day. The e2e season (six weeks from the day the server
    // started) has one only while it spans Christmas Day, or once today's last session is inside
    // the lead time; otherwise the season's last day is answered closed, as Christmas Day would be.
    await page.route(/\/available-dates/, async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { items: { date: string; available: number; sessions: number }[] };
      if (!body.items.some((d) => d.sessions === 0)) Object.assign(body.items.at(-1)!, { available: 0, sessions: 0 });
      await route.fulfill({ response: res, json: body });
    });
    const locationsRead = page.waitForResponse((r) => r.url().includes('/api/v1/common/locations') && r.ok());
    await openWizard(page);
    await expect(currentStep(page)).toContainText('Location');
    // The zone is the season's, read at its first day: AEDT in the Christmas season, AEST when the
    // suite runs in the southern winter (the e2e season starts on the day the server started).
    const { items } = (await (await locationsRead).json()) as {
      items: { name: string; timezone: string; seasonStart: string }[];
    };
    const sydney = items.find((l) => l.name === SYDNEY)!;
    const seasonZone = zoneAbbreviation(new Date(`${sydney.seasonStart}T12:00:00Z`), sydney.timezone);
    await expect(page.getByRole('button', { name: new RegExp(`^${SYDNEY}`) })).toContainText(
      `Sydney time (${seasonZone})`,
    );
    await expectNoAxeViolations(page);
    await shot(page, `${viewport.name}-1-location`);

    await page.getByRole('button', { name: new RegExp(`^${SYDNEY}`) }).click();
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(currentStep(page)).toContainText('Type');
    const sensory = page.getByRole('button', { name: /^Sensory-friendly Santa/ });
    await expect(sensory).toContainText('sensory processing');
    // Choosing the chosen type again clears it (spec §3).
    await sensory.click();
    await expect(sensory).toHaveAttribute('aria-pressed', 'true');
    await sensory.click();
    await expect(sensory).toHaveAttribute('aria-pressed', 'false');
    await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
    await page.getByRole('button', { name: /^Santa photos/ }).click();
    await expectNoAxeViolations(page);
    await shot(page, `${viewport.name}-2-type`);
    await page.getByRole('button', { name: 'Continue' }).click();

    await expect(currentStep(page)).toContainText('Session');
    const day = await chooseWholeDay(page);
    // That day's zone in Sydney (AEDT in summer, AEST in winter): the list and the countdown say it.
    const dayZone = zoneAbbreviation(zonedToInstant(day, '12:00', sydney.timezone), sydney.timezone);
    const first = freeSession(page, viewport.width === 1280 ? 1 : 2);
    await expect(first).toBeVisible();
    // The zone is said once for the list, not on each of the day's times.
    await expect(first).toHaveText(/^\d{1,2}:\d{2} (am|pm)$/);
    await expect(page.getByText(`Times are Sydney time (${dayZone})`)).toBeVisible();
    await expect(page.getByText(/Santa's break/).first()).toBeVisible();
    await expect(page.getByRole('grid').locator('button[aria-disabled="true"]').first()).toBeAttached();
    await expectNoAxeViolations(page);
    await shot(page, `${viewport.name}-3-session`);
    expect(await hasHorizontalScroll(page)).toBe(false);

    await first.click();
    await expect(stepHeading(page)).toHaveText('Choose your photo package');
    await expect(currentStep(page)).toContainText('Package');
    const countdown = page.getByTestId('hold-countdown');
    await expect(countdown).toBeVisible();
    await expect(countdown).toContainText(` ${dayZone}`);
    const before = await countdownSeconds(page);
    expect(before).toBeGreaterThan(590);
    expect(before).toBeLessThanOrEqual(600);
    await expect.poll(() => countdownSeconds(page), { timeout: 5_000 }).toBeLessThan(before);
    await expectNoAxeViolations(page);
    await shot(page, `${viewport.name}-4-package`);

    // The countdown stays in view when the page is scrolled to the bottom.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await expect(countdown).toBeInViewport();
    if (viewport.name === 'narrow') {
      // Stuck just under the phone header, not behind it.
      const header = (await page.getByRole('banner').boundingBox())!;
      const bar = (await countdown.boundingBox())!;
      expect(bar.y).toBeGreaterThanOrEqual(header.y + header.height - 1);
      expect(bar.y).toBeLessThan(header.y + header.height + 12);
    }
    expect(await hasHorizontalScroll(page)).toBe(false);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/wizard-${viewport.name}-4-package-scrolled.png` });

    expect((await recordedEvents(page)).map((e) => e.event)).toContain('schedule_session');
  });
}

test('nothing scrolls sideways at 320 px on the first three steps', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await signInFreshCustomer(page, baseURL!, 'narrowest');
  await chooseLocationAndType(page);
  expect(await hasHorizontalScroll(page)).toBe(false);
  await shot(page, '320-session');
});

test('the first three steps work by keyboard alone', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signInFreshCustomer(page, baseURL!, 'keyboard');
  await openWizard(page);
  const tabTo = async (target: ReturnType<Page['locator']>) => {
    for (let i = 0; i < 40 && !(await target.evaluate((el) => el === document.activeElement)); i++)
      await page.keyboard.press('Tab');
    await expect(target).toBeFocused();
  };
  await tabTo(page.getByRole('button', { name: new RegExp(`^${SYDNEY}`) }));
  await page.keyboard.press('Enter');
  await tabTo(page.getByRole('button', { name: 'Continue' }));
  await page.keyboard.press('Enter');
  await expect(stepHeading(page)).toBeFocused();
  await tabTo(page.getByRole('button', { name: /^Santa photos/ }));
  await page.keyboard.press('Space');
  await tabTo(page.getByRole('button', { name: 'Continue' }));
  await page.keyboard.press('Enter');
  await expect(stepHeading(page)).toHaveText('Choose a day and time');

  // The calendar is one tab stop; the arrows move, Enter chooses the next day with sessions.
  const grid = page.getByRole('grid');
  await tabTo(grid.locator('button[tabindex="0"]'));
  const today = await grid.locator('button[tabindex="0"]').getAttribute('data-date');
  await page.keyboard.press('ArrowRight');
  // Christmas Day is closed (Enter does not choose it): the arrow goes one day further.
  if ((await grid.locator('button:focus').getAttribute('aria-disabled')) === 'true')
    await page.keyboard.press('ArrowRight');
  const next = grid.locator('button:focus');
  const nextDate = await next.getAttribute('data-date');
  expect(nextDate).not.toBe(today);
  await page.keyboard.press('Enter');
  await expect(next).toHaveAttribute('aria-pressed', 'true');
  await tabTo(freeSession(page, 7));
  await page.keyboard.press('Enter');
  await expect(stepHeading(page)).toHaveText('Choose your photo package');
  await expect(page.getByTestId('hold-countdown')).toBeVisible();
});

test(
  "the browser's Back and Forward move between the steps, My Bookings offers a held session back, and Back before " +
    'the Session step lets it go',
  async ({ page, baseURL, request }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await signInFreshCustomer(page, baseURL!, 'browser-back');
    const observer = await apiCustomer(request, baseURL!, 'back-observer');
    await page.goto('/bookings');
    await expect(page.getByRole('heading', { name: 'My Bookings', level: 1 })).toBeVisible({ timeout: 20_000 });
    await chooseLocationAndType(page);
    const slotId = (await freeSession(page, 4).getAttribute('data-slot-id'))!;
    await page.locator(`[data-slot-id="${slotId}"]`).click();
    await expect(stepHeading(page)).toHaveText('Choose your photo package');

    // Back and Forward between Package and Session keep the hold.
    await page.goBack();
    await expect(stepHeading(page)).toHaveText('Choose a day and time');
    await expect(page).toHaveURL(/\/create-booking$/);
    await expect(page.getByTestId('hold-countdown')).toBeVisible();
    await page.goForward();
    await expect(stepHeading(page)).toHaveText('Choose your photo package');

    // Leaving through the tab bar with the session held: My Bookings offers it back.
    await page.getByRole('link', { name: 'My Bookings' }).click();
    const held = page.getByTestId('held-session');
    await expect(held).toContainText(
      /You are holding \w{3} \d{1,2} \w{3,4}, \d{1,2}:\d\d (am|pm) AE[DS]T at .+ until \d{1,2}:\d\d (am|pm) AE[DS]T\./,
    );
    await expectNoAxeViolations(page);
    await shot(page, 'narrow-bookings-held-session');
    await held.getByRole('button', { name: 'Continue booking' }).click();
    await expect(stepHeading(page)).toHaveText('Choose your photo package');
    await expect(page.getByTestId('hold-countdown')).toBeVisible();

    // Resumed at Package, the wizard has no earlier step in history: Back leaves it, and the hold stays.
    await page.goBack();
    await expect(page).toHaveURL(/\/bookings$/);
    await expect(held).toBeVisible();

    // Back again reaches the first visit's Package step, then its Session step, then its Type
    // step: that last one lets the hold go.
    await page.goBack();
    await expect(stepHeading(page)).toHaveText('Choose your photo package');
    await page.goBack();
    await expect(stepHeading(page)).toHaveText('Choose a day and time');
    await expect(page.getByTestId('hold-countdown')).toBeVisible();
    await page.goBack();
    await page.getByRole('button', { name: 'Let it go' }).click();
    await expect(stepHeading(page)).toHaveText('What kind of visit?');
    await expect(page.getByTestId('hold-countdown')).toHaveCount(0);
    const locations = await observer.get<{ items: { id: string; name: string }[] }>('/common/locations');
    const sydney = locations.items.find((l) => l.name === SYDNEY)!;
    await expect
      .poll(async () => (await observer.get<{ status: string }>(`/booking-slot/${sydney.id}/slots/${slotId}`)).status)
      .toBe('available');
  },
);
