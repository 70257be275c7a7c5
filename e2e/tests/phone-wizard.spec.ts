import { expect, test, type Locator, type Page } from '@playwright/test';
import { SCREENSHOT_DIR } from '../helpers/app';
import {
  CARDS,
  chooseOpenDay,
  expectAccessible,
  fillCard,
  holdASession,
  stepHeading,
  SYDNEY,
  toSessionStep,
} from '../helpers/purchase';
import { signInFreshCustomer } from '../helpers/wizard';

/**
 * Issue 17, the phone wizard at 390 px: the step's main action is in a bar above the tab bar (never
 * below the fold), the Help launcher covers nothing, picking a day brings its times into view, and
 * a declined card's reason is in view, clear of the sticky bars. "Covers nothing" is measured:
 * element boxes, not a look.
 */
const PHONE = { width: 390, height: 844 };

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
  what: string;
}
const intersects = (a: Box, b: Box) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

async function boxOf(locator: Locator, what: string): Promise<Box> {
  const b = (await locator.boundingBox())!;
  expect(b, what).not.toBeNull();
  return { x: b.x, y: b.y, w: b.width, h: b.height, what };
}

/**
 * The launcher is the tab bar's last tab (decision 0107: where Help is on every page) and its box meets none of the
 * wizard's visible buttons, labels, calendar days, headings or texts, nor the countdown or the action bar. An element
 * scrolled under the tab bar is hidden by the bar itself: only its part above the bar counts.
 */
async function expectLauncherCoversNothing(page: Page, where: string) {
  const launcher = await boxOf(page.getByTestId('help-launcher'), 'help launcher');
  const tabBar = await boxOf(page.getByTestId('bottom-tab-bar'), 'tab bar');
  const tabs = await boxOf(page.getByTestId('bottom-tab-bar').getByRole('listitem').last(), 'last tab');
  expect(intersects(launcher, tabs) && launcher.x >= tabs.x - 0.5, `${where}: launcher is the last tab`).toBe(true);
  const targets = await page.locator('main').evaluate((main) => {
    const out: { x: number; y: number; w: number; h: number; what: string }[] = [];
    for (const el of Array.from(
      main.querySelectorAll<HTMLElement>('button, label, a, input, h1, h2, h3, h4, p, li, [data-date], [role="timer"]'),
    )) {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      if (!r.width || !r.height || style.visibility === 'hidden') continue;
      out.push({
        x: r.x,
        y: r.y,
        w: r.width,
        h: r.height,
        what: `${el.tagName} ${(el.getAttribute('aria-label') ?? el.textContent ?? '').trim().slice(0, 40)}`,
      });
    }
    return out;
  });
  const visible = targets.map((t) => ({ ...t, h: Math.min(t.y + t.h, tabBar.y) - t.y })).filter((t) => t.h > 0);
  expect(visible.length, where).toBeGreaterThan(5);
  expect(
    visible.filter((t) => intersects(launcher, t)).map((t) => t.what),
    `${where}: under the Help launcher`,
  ).toEqual([]);
  for (const id of ['phone-action-bar', 'hold-countdown']) {
    const bar = page.getByTestId(id);
    if (await bar.isVisible())
      expect(intersects(launcher, await boxOf(bar, id)), `${where}: launcher over ${id}`).toBe(false);
  }
}

/** The launcher covers nothing with the page at its top and scrolled to its end. */
async function checkBothEnds(page: Page, where: string) {
  await page.evaluate(() => window.scrollTo(0, 0));
  await expectLauncherCoversNothing(page, `${where} (top)`);
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expectLauncherCoversNothing(page, `${where} (end)`);
  await page.evaluate(() => window.scrollTo(0, 0));
}

/** The step's main action is in view without scrolling, in the bar above the tab bar. */
async function expectActionInView(page: Page, name: string | RegExp) {
  const bar = page.getByTestId('phone-action-bar');
  await expect(bar).toBeInViewport({ ratio: 1 });
  await expect(bar.getByRole('button', { name })).toBeInViewport({ ratio: 1 });
  // Every label on one line (a wrapped "Continue to payment" made a cramped two-line bar), nothing cut off.
  for (const button of await bar.getByRole('button').all())
    expect((await boxOf(button, 'bar button')).h, (await button.textContent()) ?? '').toBeLessThanOrEqual(48);
  // Nothing reaches into the bar's side padding.
  const edges = await bar.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const pad = parseFloat(getComputedStyle(el).paddingRight);
    return {
      right: box.right - pad,
      furthest: Math.max(...Array.from(el.querySelectorAll('button'), (b) => b.getBoundingClientRect().right)),
    };
  });
  expect(edges.furthest).toBeLessThanOrEqual(edges.right + 0.5);
  const tabs = await boxOf(page.getByTestId('bottom-tab-bar'), 'tab bar');
  expect(intersects(await boxOf(bar, 'action bar'), tabs)).toBe(false);
}

const shot = (page: Page, name: string) => page.screenshot({ path: `${SCREENSHOT_DIR}/phone-wizard/${name}.png` });

test(
  'the phone wizard: Continue in view on every step, the Help launcher over nothing, times and reasons in ' + 'view',
  async ({ page, baseURL }) => {
    test.setTimeout(150_000);
    await page.setViewportSize(PHONE);
    await signInFreshCustomer(page, baseURL!, 'phone');
    await page.goto('/create-booking');
    await expect(stepHeading(page)).toHaveText('Where would you like to visit Santa?', { timeout: 20_000 });
    await page.getByRole('button', { name: new RegExp(`^${SYDNEY}`) }).click();
    await expectActionInView(page, 'Continue');
    await checkBothEnds(page, 'location');
    await shot(page, '390-1-location');
    await page.getByTestId('phone-action-bar').getByRole('button', { name: 'Continue' }).click();

    await expect(stepHeading(page)).toHaveText('What kind of visit?');
    await page.getByRole('button', { name: /^Santa photos/ }).click();
    await expectActionInView(page, 'Continue');
    await checkBothEnds(page, 'type');
    await shot(page, '390-2-type');
    await page.getByRole('button', { name: 'Continue' }).click();

    // Session: choosing a day brings its times up; the zone is said once.
    await expect(stepHeading(page)).toHaveText('Choose a day and time');
    await expect(page.locator('[data-status="available"]').first()).toBeAttached();
    await page.evaluate(() => window.scrollTo(0, 0));
    await chooseOpenDay(page, 9);
    await expect(page.locator('#sessions-heading')).toBeInViewport();
    await expect(page.locator('[data-status="available"]').first()).toBeInViewport();
    await expect(page.getByText(/^Times are \w+ time \(AE[DS]T\)$/)).toHaveCount(1);
    expect(
      await page
        .locator('[data-slot-id]')
        .filter({ hasText: /AE[DS]T/ })
        .count(),
    ).toBe(0);
    await expectAccessible(page, 'session');
    await shot(page, '390-3-session-times');
    await checkBothEnds(page, 'session');
    await expectActionInView(page, 'Back');

    // Package: Continue in the bar with the total, however long the list.
    await page.locator('[data-status="available"]').nth(3).click();
    await expect(stepHeading(page)).toHaveText('Choose your photo package');
    await page.getByRole('radio', { name: /^Classic Print/ }).check();
    await expectActionInView(page, 'Continue');
    await expect(page.getByTestId('phone-action-bar').getByTestId('cart-total')).toHaveText('$39.95');
    await checkBothEnds(page, 'package');
    await expectAccessible(page, 'package');
    await shot(page, '390-4-package');
    await page.getByTestId('phone-action-bar').getByRole('button', { name: 'Continue' }).click();

    await expect(stepHeading(page)).toHaveText('Our booking policy');
    await page.getByRole('checkbox', { name: /accept the booking policy/ }).check();
    await expectActionInView(page, 'Continue');
    await checkBothEnds(page, 'policy');
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(stepHeading(page)).toHaveText('Check your booking');
    await expectActionInView(page, 'Continue to payment');
    await shot(page, '390-4b-overview');
    await checkBothEnds(page, 'overview');
    await page.getByRole('button', { name: 'Continue to payment' }).click();

    // Payment: a declined card's reason in view, under neither the countdown nor the action bar.
    await expect(stepHeading(page)).toHaveText('Payment');
    await fillCard(page, CARDS.declined);
    // Pay is the step's main action: in the bar, in view, whatever the form's length.
    await expectActionInView(page, /^Pay \$/);
    const pay = page.getByTestId('phone-action-bar').getByRole('button', { name: /^Pay \$/ });
    expect(intersects(await boxOf(page.getByTestId('help-launcher'), 'launcher'), await boxOf(pay, 'Pay'))).toBe(false);
    await pay.click();
    const problem = page.getByTestId('payment-problem');
    await expect(problem).toBeVisible({ timeout: 20_000 });
    await expect(problem).toBeInViewport({ ratio: 1 });
    await page.waitForTimeout(400); // the smooth scroll settles
    const reason = await boxOf(problem, 'declined reason');
    const countdown = await boxOf(page.getByTestId('hold-countdown'), 'countdown');
    const bar = await boxOf(page.getByTestId('phone-action-bar'), 'action bar');
    expect(intersects(reason, countdown), 'reason under the countdown').toBe(false);
    expect(intersects(reason, bar), 'reason under the action bar').toBe(false);
    expect(reason.y).toBeGreaterThanOrEqual(countdown.y + countdown.h);
    expect(reason.y + reason.h).toBeLessThanOrEqual(bar.y);
    await checkBothEnds(page, 'payment');
    await expectAccessible(page, 'declined');
    await problem.scrollIntoViewIfNeeded();
    await shot(page, '390-5-declined');
  },
);

test('fully booked and nearly full days read differently from closed ones, with a jump to the next free day', async ({
  page,
  baseURL,
}) => {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
    if (width === 390) await signInFreshCustomer(page, baseURL!, 'full-day');
    // The season's eighth open day shown fully booked and the ninth with two left: the calendar and list as the API
    // would say them.
    let fullDay = '';
    let fewDay = '';
    await page.unroute(/\/available-dates/);
    await page.route(/\/available-dates/, async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { items: { date: string; available: number; sessions: number }[] };
      const open = body.items.filter((d) => d.available > 5);
      fullDay = open[7]!.date;
      fewDay = open[8]!.date;
      for (const d of body.items) {
        if (d.date === fullDay) d.available = 0;
        if (d.date === fewDay) d.available = 2;
      }
      await route.fulfill({ response: res, json: body });
    });
    await page.unroute(/\/available-slots/);
    await page.route(/\/available-slots/, async (route) => {
      const res = await route.fetch();
      const body = (await res.json()) as { items: { kind: string; status: string }[] };
      const url = route.request().url();
      // The full day: every session taken; the few-left day: two left.
      const keep = url.includes(`date=${fullDay}`) ? 0 : url.includes(`date=${fewDay}`) ? 2 : Infinity;
      let kept = 0;
      for (const s of body.items)
        if (s.kind === 'session' && s.status === 'available' && kept++ >= keep) s.status = 'booked';
      await route.fulfill({ response: res, json: body });
    });
    if (width === 390) {
      await toSessionStep(page);
    } else await page.reload(); // the wizard keeps its place: the Session step again, days read afresh
    await expect(stepHeading(page)).toHaveText('Choose a day and time', { timeout: 20_000 });
    await expect(page.locator('button[data-date]').first()).toBeVisible();
    await expect.poll(() => fullDay).not.toBe('');

    const full = page.locator(`button[data-date="${fullDay}"]`);
    await expect(full).toHaveText(/Full/);
    await expect(full).toHaveAccessibleName(/fully booked$/);
    await expect(full).not.toHaveAttribute('aria-disabled');
    await expect(page.locator(`button[data-date="${fewDay}"]`)).toHaveText(/Few left/);
    await expect(page.locator(`button[data-date="${fewDay}"]`)).toHaveAccessibleName(/few left: 2 sessions left$/);
    const closed = page.locator('button[data-date][aria-disabled="true"]');
    if ((await closed.count()) > 0) await expect(closed.first()).toHaveAccessibleName(/closed$/);
    await expect(page.getByText('Full: fully booked')).toBeVisible();

    await page.getByRole('grid').screenshot({ path: `${SCREENSHOT_DIR}/phone-wizard/${width}-calendar.png` });
    await full.click();
    const notice = page.getByTestId('day-full');
    await expect(notice).toContainText('Fully booked.');
    await expect(page.locator('[data-slot-id][data-status="available"]')).toHaveCount(0);
    await expectAccessible(page, `full day ${width}`);
    await notice.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/phone-wizard/${width}-full-day.png` });
    await notice.getByRole('button', { name: /^Next free day: / }).click();
    await expect(page.locator(`button[data-date="${fewDay}"]`)).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByTestId('day-few')).toContainText('Few left: only 2 sessions free this day.');
  }
});

test('at 1280 px the packages are one choice with a running summary beside them', async ({ page, baseURL }) => {
  test.setTimeout(90_000);
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInFreshCustomer(page, baseURL!, 'wide-pkg');
  await holdASession(page, { daysAhead: 10 });
  await page.getByRole('radio', { name: /^Family Keepsake/ }).check();
  await page.getByRole('radio', { name: /^Classic Print/ }).check();
  await expect(page.getByRole('radio', { name: /^Family Keepsake/ })).not.toBeChecked();
  await page.getByRole('button', { name: 'Add one Photo ornament' }).click();
  const summary = page.getByTestId('order-summary');
  await expect(summary).toContainText('Classic Print');
  await expect(summary).toContainText('Photo ornament');
  await expect(summary).not.toContainText('Family Keepsake');
  await expect(summary).toContainText('$59.90');
  await expect(page.getByTestId('cart-total')).toHaveText('$59.90');
  // Beside the choices, not under them.
  const choices = await boxOf(
    page.getByRole('radio', { name: /^Classic Print/ }).locator('xpath=ancestor::label'),
    'package card',
  );
  const side = await boxOf(summary, 'summary');
  expect(side.x).toBeGreaterThanOrEqual(choices.x + choices.w);
  await page.getByRole('button', { name: 'Add another package' }).click();
  await page.getByRole('button', { name: 'Add Deluxe Sleigh' }).click();
  await expect(summary).toContainText('Deluxe Sleigh');
  await expectAccessible(page, 'package wide');
  await page.screenshot({ path: `${SCREENSHOT_DIR}/phone-wizard/1280-package.png` });
  await page.getByRole('button', { name: 'Remove Deluxe Sleigh' }).click();
  await summary.getByRole('button', { name: 'Continue' }).click();
  await expect(stepHeading(page)).toHaveText('Our booking policy');
});
