import { mkdirSync } from 'node:fs';
import { expect, test, type Locator } from '@playwright/test';
import { customerClient } from '../helpers/bookings';
import { SCREENSHOT_DIR, hasHorizontalScroll } from '../helpers/app';
import { expectAccessible } from '../helpers/purchase';
import { loadLocationOpenNow, sessionsLaterToday, staffNav } from '../helpers/staff';
import { newStaffMember, signInAndEnrol } from '../helpers/staff-mfa';
import { createVerifiedCustomer } from '../helpers/wizard';

const DIR = `${SCREENSHOT_DIR}/staff-live`;

/** A figure of a location's card: the number under its label. */
const figure = (card: Locator, label: string) =>
  card.locator(`xpath=.//dt[normalize-space(.)="${label}"]/following-sibling::dd[1]`);

/**
 * Issue 50's Live page (decision 0094): a manager opens Live and sees today's figures per
 * location; a family holds a session from another browser, and the held count goes up within a
 * few seconds, over the stream, without a reload. At 390 and 1280 px, axe clean.
 */
for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test(`live page at ${viewport.width} px: a family's hold shows without a reload`, async ({
    page,
    browser,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    mkdirSync(DIR, { recursive: true });
    await page.setViewportSize(viewport);
    // A location of this attempt's own, so its figures are this test's alone (a retry too).
    const tag = `${viewport.width}-${Math.random().toString(36).slice(2, 7)}`;
    const name = `Kringle Live ${tag}`;
    loadLocationOpenNow(name, `live-${tag}`);
    const { slots } = await sessionsLaterToday(page.request, name, 1);
    await page.context().clearCookies();

    await signInAndEnrol(page, await newStaffMember(page, 'manager', `live-${viewport.width}`));
    const nav = await staffNav(page);
    await nav.getByRole('link', { name: 'Live' }).click();
    await expect(page).toHaveURL(/\/staff\/live$/);
    await expect(page.getByRole('heading', { name: 'Live', level: 1 })).toBeVisible({ timeout: 30_000 });
    const card = page.getByRole('region', { name });
    await expect(card).toBeVisible({ timeout: 15_000 });
    await expect(page.getByRole('status').filter({ hasText: /Updated .* every 2 seconds/ })).toBeVisible();
    await expect(figure(card, 'Held')).toHaveText('0');
    await expect(figure(card, 'Sold')).toHaveText('0');
    const free = Number(await figure(card, 'Free').textContent());
    expect(free).toBeGreaterThan(0);
    await expect(
      card.getByRole('img', { name: `Sessions today: 0 sold, 0 held, 0 closed, ${free} free` }),
    ).toBeVisible();

    // The family, in a browser of its own, holds one of today's sessions there.
    const family = await browser.newContext({ baseURL });
    try {
      const who = await createVerifiedCustomer(family.request, baseURL!, `live-${viewport.width}`);
      const api = await customerClient(family.request, who.email, who.password);
      await api.post('/bookings/reservation', { slotId: slots[0]!.id });
    } finally {
      await family.close();
    }
    const reloads: string[] = [];
    page.on('framenavigated', (f) => f === page.mainFrame() && reloads.push(f.url()));
    await expect(figure(card, 'Held')).toHaveText('1', { timeout: 8_000 });
    await expect(figure(card, 'Free')).toHaveText(String(free - 1));
    expect(reloads).toEqual([]);

    await page.screenshot({ path: `${DIR}/${viewport.width}.png`, fullPage: true });
    expect(await hasHorizontalScroll(page)).toBe(false);
    await expectAccessible(page, `live ${viewport.width}`);
  });
}
