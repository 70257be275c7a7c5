import { expect, test } from '@playwright/test';
import { chooseOpenDay, toSessionStep } from '../helpers/purchase';
import { apiCustomer, signInFreshCustomer } from '../helpers/wizard';

/**
 * Issue 17: another family takes a time through the API and the open Session step shows it taken
 * within a second or two, without a reload and without asking for the day again (pushed by
 * GET /booking-slot/{locationId}/live, decision 0026); let go, it is free again.
 */
test(
  'a time another family takes shows as taken on an open Session step without a reload, and free again when let ' +
    'go',
  async ({ page, baseURL, request }) => {
    test.setTimeout(90_000);
    await page.setViewportSize({ width: 390, height: 844 });
    await signInFreshCustomer(page, baseURL!, 'watcher');
    const rival = await apiCustomer(request, baseURL!, 'live-rival');
    const live = page.waitForResponse((r) => r.url().includes('/live') && r.status() === 200);
    await toSessionStep(page);
    await live;
    await chooseOpenDay(page, 11);

    const target = page.locator('[data-status="available"]').nth(4);
    const slotId = (await target.getAttribute('data-slot-id'))!;
    const slot = page.locator(`[data-slot-id="${slotId}"]`);
    let dayReads = 0;
    page.on('request', (r) => void (r.url().includes('/available-slots') && (dayReads += 1)));
    const navigations: string[] = [];
    page.on('framenavigated', (f) => void (f === page.mainFrame() && navigations.push(f.url())));

    const held = await rival.post('/bookings/reservation', { slotId });
    expect(held.status(), await held.text()).toBe(201);
    await expect(slot).toHaveAttribute('data-status', 'reserved', { timeout: 2_000 });
    await expect(slot).toBeDisabled();
    await expect(slot).toHaveAccessibleName(/, taken$/);

    const { id } = (await held.json()) as { id: string };
    expect((await rival.post(`/bookings/reservation/${id}/cancel`, {})).status()).toBe(200);
    await expect(slot).toHaveAttribute('data-status', 'available', { timeout: 2_000 });
    await expect(slot).toBeEnabled();
    // Pushed, not polled or reloaded.
    expect(dayReads).toBe(0);
    expect(navigations).toEqual([]);
  },
);

test('without the stream the Session step still learns of taken times by polling', async ({ page, baseURL }) => {
  await signInFreshCustomer(page, baseURL!, 'no-stream');
  await page.route('**/booking-slot/*/live', (route) =>
    route.fulfill({
      status: 503,
      json: { code: 'SERVICE_UNAVAILABLE', error: 'Live updates are not available right now.' },
    }),
  );
  await toSessionStep(page);
  await expect(page.locator('[data-status="available"]').first()).toBeVisible();
  // The polled read of the day comes again within the polling interval (15 s).
  const again = await page.waitForRequest((r) => r.url().includes('/available-slots'), { timeout: 20_000 });
  expect(again.url()).toContain('date=');
});
