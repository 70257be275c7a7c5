import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { appCheckToken, SCREENSHOT_DIR, signInThroughApi } from '../helpers/app';
import { createVerifiedCustomer } from '../helpers/wizard';
import { bookThroughApi, customerClient } from '../helpers/bookings';

/** Issue 37 ("the family's journey, round two"): lean journeys, each at 390 and 1280 px. */
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const SYDNEY = 'Kringle Sydney, Pitt Street';
const stepHeading = (page: Page) => page.locator('#wizard-step-title');

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/**
 * The family on another device: signs in through the API and holds a free session on a day of its own (the 8th open
 * day).
 */
async function holdElsewhere(request: APIRequestContext, email: string, password: string) {
  const token = await appCheckToken(request);
  const check: Record<string, string> = token ? { 'X-App-Check': token } : {};
  const { idToken } = (await (
    await request.post('/api/v1/auth/sign-in', { data: { email, password }, headers: check })
  ).json()) as { idToken: string };
  const headers = { ...check, Authorization: `Bearer ${idToken}` };
  const get = async <T>(path: string) => (await (await request.get(`/api/v1${path}`, { headers })).json()) as T;
  const location = (
    await get<{ items: { id: string; name: string; slotTypes: { id: string; name: string }[] }[] }>('/common/locations')
  ).items.find((l) => l.name === SYDNEY)!;
  const type = location.slotTypes.find((t) => t.name === 'Santa photos')!;
  const days = (
    await get<{ items: { date: string; available: number }[] }>(
      `/booking-slot/${location.id}/available-dates?slotTypeId=${type.id}`,
    )
  ).items.filter((d) => d.available > 10);
  const day = days[Math.min(7, days.length - 1)]!.date;
  const slots = (
    await get<{ items: { id: string; kind: string; status: string }[] }>(
      `/booking-slot/${location.id}/available-slots?slotTypeId=${type.id}&date=${day}`,
    )
  ).items;
  const free = slots.filter((s) => s.kind === 'session' && s.status === 'available');
  const slot = free[Math.floor(Math.random() * free.length)]!;
  const held = await request.post('/api/v1/bookings/reservation', { headers, data: { slotId: slot.id } });
  expect(held.status(), await held.text()).toBe(201);
  const live = async () => (await get<{ items: { id: string }[] }>('/bookings/reservation')).items;
  return { ...((await held.json()) as { id: string; slotId: string }), live };
}

for (const viewport of [
  { name: 'wide', width: 1280, height: 800 },
  { name: 'narrow', width: 390, height: 844 },
]) {
  test(
    `${viewport.name}: a hold taken on another device is offered back after sign-in, and resumes at Package with ` +
      `its countdown (item 1)`,
    async ({ page, baseURL, playwright }) => {
      await page.setViewportSize(viewport);
      const family = await createVerifiedCustomer(page.request, baseURL!, `follows-${viewport.name}`);
      const phone = await playwright.request.newContext({ baseURL });
      await holdElsewhere(phone, family.email, family.password);
      await phone.dispose();

      await signInThroughApi(page, family.email, family.password);
      await page.goto('/bookings');
      const held = page.getByTestId('held-session');
      await expect(held).toContainText(
        /You are holding \w{3} \d{1,2} \w{3,4}, \d{1,2}:\d\d (am|pm) AE[DS]T at .+ until/,
        { timeout: 20_000 },
      );
      await page.screenshot({
        path: `${SCREENSHOT_DIR}/journey-two/${viewport.width}-bookings-remote-hold.png`,
        fullPage: true,
      });

      await page.goto('/create-booking');
      const offer = page.getByRole('region', { name: 'You are holding a session' });
      await expect(offer).toContainText(`at ${SYDNEY}, held for you for`, { timeout: 20_000 });
      await expectNoAxeViolations(page);
      await page.screenshot({
        path: `${SCREENSHOT_DIR}/journey-two/${viewport.width}-resume-offer.png`,
        fullPage: true,
      });
      await offer.getByRole('button', { name: 'Resume this booking' }).click();
      await expect(stepHeading(page)).toHaveText('Choose your photo package');
      await expect(page.getByTestId('hold-countdown')).toBeVisible();
      await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-two/${viewport.width}-resumed.png` });
    },
  );
}

for (const viewport of [
  { name: 'wide', width: 1280, height: 800 },
  { name: 'narrow', width: 390, height: 844 },
]) {
  test(
    `${viewport.name}: Back before the Session step asks before letting the held session go, and keeping it keeps ` +
      `it (item 2)`,
    async ({ page, baseURL, playwright }) => {
      await page.setViewportSize(viewport);
      const family = await createVerifiedCustomer(page.request, baseURL!, `back-asks-${viewport.name}`);
      const phone = await playwright.request.newContext({ baseURL });
      const hold = await holdElsewhere(phone, family.email, family.password);
      await signInThroughApi(page, family.email, family.password);
      await page.goto('/create-booking');
      await page.getByRole('button', { name: 'Resume this booking' }).click({ timeout: 20_000 });
      await expect(stepHeading(page)).toHaveText('Choose your photo package');

      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await expect(stepHeading(page)).toHaveText('Choose a day and time');
      await page.getByRole('button', { name: 'Back', exact: true }).click();
      const ask = page.getByRole('dialog', { name: /^Let go of \w{3} \d{1,2} \w{3,4} \d{1,2}:\d\d (am|pm)\?$/ });
      await expect(ask).toBeVisible();
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-two/${viewport.width}-back-asks.png` });
      await ask.getByRole('button', { name: 'Keep my session' }).click();
      await expect(ask).toHaveCount(0);
      await expect(stepHeading(page)).toHaveText('Choose a day and time');
      await expect(page.getByTestId('hold-countdown')).toBeVisible();

      await page.getByRole('button', { name: 'Back', exact: true }).click();
      await page.getByRole('button', { name: 'Let it go' }).click();
      await expect(stepHeading(page)).toHaveText('What kind of visit?');
      await expect(page.getByTestId('hold-countdown')).toHaveCount(0);
      // The server tells the same story: nothing held any more.
      await expect.poll(hold.live).toEqual([]);
      await phone.dispose();
    },
  );
}

test(
  'at the five-upcoming-bookings limit, the first step and My Bookings say so up front, at 1280 and 390 px (item ' +
    '6)',
  async ({ page, baseURL }) => {
    const family = await createVerifiedCustomer(page.request, baseURL!, 'at-limit');
    const api = await customerClient(page.request, family.email, family.password);
    for (let i = 0; i < 5; i++) await bookThroughApi(api, page.request, { daysAhead: 4 + i });
    await signInThroughApi(page, family.email, family.password);
    const limit = page.getByTestId('booking-limit');
    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      await page.setViewportSize(viewport);
      await page.goto('/create-booking');
      await expect(limit).toHaveText(
        'You have 5 upcoming bookings, the most one account can hold. To book another, cancel one of them or contact ' +
          'us.',
        { timeout: 20_000 },
      );
      await expect(stepHeading(page)).toHaveText('Where would you like to visit Santa?');
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-two/${viewport.width}-limit-first-step.png` });
      await page.goto('/bookings');
      await expect(limit).toBeVisible({ timeout: 20_000 });
      await expectNoAxeViolations(page);
      await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-two/${viewport.width}-limit-bookings.png` });
    }
  },
);
