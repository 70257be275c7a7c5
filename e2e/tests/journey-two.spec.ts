import AxeBuilder from '@axe-core/playwright';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { appCheckToken, SCREENSHOT_DIR, signInThroughApi } from './helpers';
import { createVerifiedCustomer } from './wizard-helpers';

/** Issue 37 ("the family's journey, round two"): lean journeys, each at 390 and 1280 px. */
const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const SYDNEY = 'Kringle Sydney, Pitt Street';
const stepHeading = (page: Page) => page.locator('#wizard-step-title');

async function expectNoAxeViolations(page: Page) {
  const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA).analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

/** The family on another device: signs in through the API and holds a free session on a day of its own (the 8th open day). */
async function holdElsewhere(request: APIRequestContext, email: string, password: string) {
  const token = await appCheckToken(request);
  const check: Record<string, string> = token ? { 'X-App-Check': token } : {};
  const { idToken } = (await (await request.post('/api/v1/auth/sign-in', { data: { email, password }, headers: check })).json()) as { idToken: string };
  const headers = { ...check, Authorization: `Bearer ${idToken}` };
  const get = async <T>(path: string) => (await (await request.get(`/api/v1${path}`, { headers })).json()) as T;
  const location = (await get<{ items: { id: string; name: string; slotTypes: { id: string; name: string }[] }[] }>('/common/locations')).items.find((l) => l.name === SYDNEY)!;
  const type = location.slotTypes.find((t) => t.name === 'Santa photos')!;
  const days = (await get<{ items: { date: string; available: number }[] }>(`/booking-slot/${location.id}/available-dates?slotTypeId=${type.id}`)).items.filter((d) => d.available > 10);
  const day = days[Math.min(7, days.length - 1)]!.date;
  const slots = (await get<{ items: { id: string; kind: string; status: string }[] }>(`/booking-slot/${location.id}/available-slots?slotTypeId=${type.id}&date=${day}`)).items;
  const free = slots.filter((s) => s.kind === 'session' && s.status === 'available');
  const slot = free[Math.floor(Math.random() * free.length)]!;
  const held = await request.post('/api/v1/bookings/reservation', { headers, data: { slotId: slot.id } });
  expect(held.status(), await held.text()).toBe(201);
  return (await held.json()) as { id: string; slotId: string };
}

for (const viewport of [
  { name: 'wide', width: 1280, height: 800 },
  { name: 'narrow', width: 390, height: 844 },
]) {
  test(`${viewport.name}: a hold taken on another device is offered back after sign-in, and resumes at Package with its countdown (item 1)`, async ({ page, baseURL, playwright }) => {
    await page.setViewportSize(viewport);
    const family = await createVerifiedCustomer(page.request, baseURL!, `follows-${viewport.name}`);
    const phone = await playwright.request.newContext({ baseURL });
    await holdElsewhere(phone, family.email, family.password);
    await phone.dispose();

    await signInThroughApi(page, family.email, family.password);
    await page.goto('/bookings');
    const held = page.getByTestId('held-session');
    await expect(held).toContainText(/You are holding \w{3} \d{1,2} \w{3}, \d{1,2}:\d\d (am|pm) AE[DS]T at .+ until/, { timeout: 20_000 });
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-two/${viewport.width}-bookings-remote-hold.png`, fullPage: true });

    await page.goto('/create-booking');
    const offer = page.getByRole('region', { name: 'You are holding a session' });
    await expect(offer).toContainText(`at ${SYDNEY}, held for you for`, { timeout: 20_000 });
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-two/${viewport.width}-resume-offer.png`, fullPage: true });
    await offer.getByRole('button', { name: 'Resume this booking' }).click();
    await expect(stepHeading(page)).toHaveText('Choose your photo package');
    await expect(page.getByTestId('hold-countdown')).toBeVisible();
    await page.screenshot({ path: `${SCREENSHOT_DIR}/journey-two/${viewport.width}-resumed.png` });
  });
}
