import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { bookThroughApi, customerClient } from '../helpers/bookings';
import { SCREENSHOT_DIR } from '../helpers/app';
import { expectAccessible } from '../helpers/purchase';
import { loadLocationOpenNow, sessionsLaterToday, signInAsStaff, staffNav } from '../helpers/staff';
import { createVerifiedCustomer } from '../helpers/wizard';

const DIR = `${SCREENSHOT_DIR}/staff`;
const LOCATION = 'Kringle Phone Set Centre';

/**
 * Issue 37 item 9: the set on a phone (390 px). Today's run sheet opens on "Now and next": the
 * session on now, the next families, runs of free sessions folded into a line each and what is over
 * folded too, so the day is a short page instead of a long scroll. A walk-in sold from a folded
 * line records how it was paid, and the run sheet and its CSV total each way of paying.
 */
test('staff at 390 px: now and next, a walk-in paid by card, the takings by way of paying', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(180_000);
  mkdirSync(DIR, { recursive: true });
  loadLocationOpenNow(LOCATION, 'staff-phone');
  const { location, slots } = await sessionsLaterToday(page.request, LOCATION, 2);
  const family = await createVerifiedCustomer(page.request, baseURL!, 'staff-phone');
  const booking = await bookThroughApi(
    await customerClient(page.request, family.email, family.password),
    page.request,
    { slot: slots[1]! },
  );

  await page.setViewportSize({ width: 390, height: 844 });
  await signInAsStaff(page);
  await expect(page.getByRole('heading', { name: /^Run sheet:/ })).toBeVisible({ timeout: 30_000 });
  await page.getByLabel('Location').selectOption({ label: location.name });
  await expect(page.getByRole('heading', { name: new RegExp(`^Run sheet: ${location.name}`) })).toBeVisible();

  await expect(page.getByRole('button', { name: 'Now and next' })).toHaveAttribute('aria-pressed', 'true');
  const next = page.getByRole('region', { name: 'Next' });
  await expect(next.getByRole('listitem').filter({ hasText: booking.reference })).toContainText('Confirmed');
  await expect(page.getByRole('region', { name: 'Now' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Earlier today' })).toBeVisible();
  // Free sessions are folded: no "Sell walk-in" button until a line is opened.
  await expect(next.getByRole('button', { name: /^Sell walk-in/ })).toHaveCount(0);
  const compact = await page.evaluate(() => document.documentElement.scrollHeight);
  await expectAccessible(page, 'run sheet now and next at 390');
  await page.screenshot({ path: `${DIR}/390-now-and-next.png`, fullPage: true });

  // The whole day is a tap away, and many times as long.
  await page.getByRole('button', { name: 'Whole day' }).click();
  await expect(page.getByRole('region', { name: 'Now' })).toHaveCount(0);
  const whole = await page.evaluate(() => document.documentElement.scrollHeight);
  expect(compact * 3).toBeLessThan(whole);
  await page.getByRole('button', { name: 'Now and next' }).click();

  // Open the line that holds the first free session and sell it.
  const label = (await next
    .getByRole('button', { name: /^Show / })
    .first()
    .getAttribute('aria-label'))!;
  expect(label).toMatch(/^Show \d{1,2}:\d\d [ap]m – \d{1,2}:\d\d [ap]m: \d+ free sessions?$/);
  await next.getByRole('button', { name: label }).click();
  await expect(next.getByRole('button', { name: label.replace(/^Show/, 'Hide') })).toHaveAttribute(
    'aria-expanded',
    'true',
  );
  await page.screenshot({ path: `${DIR}/390-now-and-next-opened.png`, fullPage: true });
  await expectAccessible(page, 'run sheet with a line opened at 390');
  const sell = next.getByRole('button', { name: /^Sell walk-in, / }).first();
  const soldAt = (await sell.getAttribute('aria-label'))!.replace('Sell walk-in, ', '');
  expect(soldAt).toBeTruthy();
  await sell.click();

  await expect(page.getByRole('heading', { name: `Walk-in at ${location.name}` })).toBeVisible();
  await expect(page.getByLabel('Free session today').locator('option:checked')).toContainText(soldAt);
  await page.getByLabel('First name', { exact: true }).fill('Robin');
  await page.getByLabel('Last name').fill('Holly');
  await page.getByLabel('Quantity of Classic Print').selectOption('1');
  const paid = page.getByRole('group', { name: 'Paid with' });
  await expect(paid.getByRole('radio')).toHaveCount(3);
  for (const radio of await paid.getByRole('radio').all()) await expect(radio).not.toBeChecked();
  await page.getByRole('button', { name: 'Sell and mark paid in store' }).click();
  // Not said how they paid: refused beside the question, nothing sold.
  await expect(paid).toHaveAccessibleDescription('Choose how the family paid: cash, card or EFTPOS.');
  await expect(paid.getByRole('radio', { name: 'Cash' })).toBeFocused();
  await page.screenshot({ path: `${DIR}/390-walk-in-paid-with-refused.png` });
  await expectAccessible(page, 'walk-in without a way of paying at 390');
  await paid.getByRole('radio', { name: 'Card' }).check();
  await page.getByRole('button', { name: 'Sell and mark paid in store' }).click();
  const confirmation = page.getByRole('status');
  await expect(confirmation).toContainText('paid in store by card', { timeout: 15_000 });
  const reference = /Sold: (KR-\w{5})/.exec((await confirmation.textContent())!)![1]!;
  await page.screenshot({ path: `${DIR}/390-walk-in-paid-by-card.png` });

  await (await staffNav(page)).getByRole('link', { name: 'Run sheet' }).click();
  await expect(page.getByRole('list', { name: 'Walk-in takings' })).toContainText('$39.95Card: 1 walk-in');
  await expect(page.getByRole('list', { name: 'Walk-in takings' })).toContainText('$0.00Cash: 0 walk-ins');
  await expect(page.getByRole('listitem').filter({ hasText: reference })).toContainText('Walk-in, Card');
  await expectAccessible(page, 'run sheet with takings at 390');
  await page.screenshot({ path: `${DIR}/390-run-sheet-takings.png`, fullPage: true });

  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Download CSV' }).click(),
  ]);
  const csv = readFileSync((await download.path())!, 'utf8');
  expect(csv).toContain(`"${reference}","Robin Holly"`);
  expect(csv).toMatch(/"Total",.*"1 walk-in","39\.95","Card","Walk-in","",""\r\n/);
  expect(csv).toMatch(/"Total",.*"0 walk-ins","0\.00","Cash","Walk-in","",""\r\n/);
});
