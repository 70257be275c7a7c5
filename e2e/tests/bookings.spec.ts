import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { hasHorizontalScroll, SCREENSHOT_DIR } from '../helpers/app';
import { bookThroughApi, cardOf, downloadFrom, familyWithSession, rescheduleThroughApi } from '../helpers/bookings';
import { recordedEvents } from '../helpers/wizard';

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const VIEWPORTS = [
  { name: 'wide', width: 1280, height: 800 },
  { name: 'narrow', width: 390, height: 844 },
] as const;

async function expectNoAxeViolations(page: Page) {
  // Toasts belong to the app shell's Toaster and are checked by the layout journeys.
  const results = await new AxeBuilder({ page }).withTags(WCAG_22_AA).exclude('[data-sonner-toaster]').analyze();
  expect(results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)).toEqual([]);
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${SCREENSHOT_DIR}/bookings-${name}.png`, fullPage: true });
const dollars = (cents: number) => `$${(cents / 100).toFixed(2)}`;

async function openBookings(page: Page, tab: 'Upcoming' | 'Past' = 'Upcoming') {
  await page.goto(tab === 'Past' ? '/bookings?tab=past' : '/bookings');
  await expect(page.getByRole('heading', { name: 'My Bookings', level: 1 })).toBeVisible({ timeout: 20_000 });
  await expect(page.getByRole('tab', { name: tab })).toHaveAttribute('aria-selected', 'true');
}

function expectPdf(file: { response: { headers(): Record<string, string> }; bytes: Buffer }) {
  expect(file.response.headers()['content-type']).toContain('application/pdf');
  expect(file.bytes.length).toBeGreaterThan(500);
  expect(file.bytes.subarray(0, 5).toString()).toBe('%PDF-');
}

for (const viewport of VIEWPORTS) {
  test(
    `a family sees a paid booking, downloads receipts, cancels with a refund and finds it under Past at ` +
      `${viewport.width} px`,
    async ({ page, baseURL }) => {
      await page.setViewportSize(viewport);
      const api = await familyWithSession(page, baseURL!, `cancel-${viewport.width}`);
      const booking = await bookThroughApi(api, page.request);
      expect(booking.refundableCents).toBe(booking.amountCents);

      await openBookings(page);
      const card = cardOf(page, booking.reference);
      await expect(card.getByText('Confirmed')).toBeVisible();
      await expect(card).toContainText(/\w{3} \d{1,2} \w{3,4}, \d{1,2}:\d{2} (am|pm) AE[DS]T/);
      await expect(card.getByTestId('booking-total')).toHaveText(dollars(booking.amountCents));
      expect(await hasHorizontalScroll(page)).toBe(false);
      await expectNoAxeViolations(page);
      await shot(page, `${viewport.name}-1-upcoming`);

      const receipt = await downloadFrom(page, card.getByRole('button', { name: 'Tax invoice' }), '/payment-receipt');
      expectPdf(receipt);
      const ics = await downloadFrom(page, card.getByRole('button', { name: 'Add to calendar' }), '/calendar.ics');
      expect(ics.bytes.toString()).toContain('BEGIN:VCALENDAR');

      await card.getByRole('button', { name: 'Cancel booking' }).click();
      const dialog = page.getByRole('alertdialog', { name: 'Cancel this booking?' });
      await expect(dialog).toContainText(
        `You will be refunded ${dollars(booking.amountCents)} to the card you paid with.`,
      );
      await expect(dialog.getByRole('button', { name: 'Keep booking' })).toBeFocused();
      await expectNoAxeViolations(page);
      await shot(page, `${viewport.name}-2-cancel-dialog`);
      await dialog.getByRole('button', { name: 'Cancel booking' }).click();
      await expect(
        page.getByText(`Booking ${booking.reference} is cancelled. ${dollars(booking.amountCents)} is on its way back`),
      ).toBeVisible();
      await expect(card).toHaveCount(0);
      // The cancelled card has gone, so keyboard focus waits on the open tab rather than the page's start.
      await expect(page.getByRole('tab', { name: 'Upcoming' })).toBeFocused();

      await page.getByRole('tab', { name: 'Past' }).click();
      const past = cardOf(page, booking.reference);
      await expect(past.getByText('Cancelled')).toBeVisible();
      await expect(past.getByRole('button', { name: 'Cancel booking' })).toHaveCount(0);
      expectPdf(await downloadFrom(page, past.getByRole('button', { name: 'Refund receipt' }), '/refund-receipt'));
      expectPdf(await downloadFrom(page, past.getByRole('button', { name: 'Tax invoice' }), '/payment-receipt'));
      expect(await hasHorizontalScroll(page)).toBe(false);
      await expectNoAxeViolations(page);
      await shot(page, `${viewport.name}-3-past`);

      const events = (await recordedEvents(page)).map((e) => e.event);
      expect(events).toEqual(expect.arrayContaining(['package_cancel', 'booking cancel']));
    },
  );
}

test('reschedule hands the booking to the wizard with its location kept', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const api = await familyWithSession(page, baseURL!, 'reschedule');
  const booking = await bookThroughApi(api, page.request);
  expect(booking.canReschedule).toBe(true);

  await openBookings(page);
  await cardOf(page, booking.reference).getByRole('button', { name: 'Reschedule' }).click();
  await expect(page).toHaveURL(/\/create-booking$/);
  // The wizard state persists (spec §4): the reschedule data names the booking, the location is the booking's.
  await expect
    .poll(async () => (await page.evaluate(() => window.localStorage.getItem('persist:kringle'))) ?? '')
    .toContain(booking.id);
  const stored = await page.evaluate(
    () =>
      JSON.parse(JSON.parse(window.localStorage.getItem('persist:kringle') ?? '{}').booking ?? '{}') as {
        rescheduleData?: { bookingId: string };
        location?: { name: string };
      },
  );
  expect(stored.rescheduleData?.bookingId).toBe(booking.id);
  expect(stored.location?.name ?? '').toContain('Sydney');
  const events = (await recordedEvents(page)).map((e) => e.event);
  expect(events).toEqual(expect.arrayContaining(['reschedule', 'package_reschedule']));
  await shot(page, 'narrow-4-reschedule-handoff');

  // The wizard's reschedule steps belong to the wizard; once a booking has moved, its card says so.
  const moved = await rescheduleThroughApi(api, booking);
  await openBookings(page);
  const card = cardOf(page, booking.reference);
  await expect(card.locator('time')).toHaveAttribute('datetime', moved.slot.startAt);
  await expect(card).toContainText('1 of 2 free moves used.');
});

test('an unpaid booking can be paid from My Bookings', async ({ page, baseURL }) => {
  await page.setViewportSize({ width: 1280, height: 800 });
  const api = await familyWithSession(page, baseURL!, 'continue');
  const booking = await bookThroughApi(api, page.request, { pay: false });

  await openBookings(page);
  const card = cardOf(page, booking.reference);
  await expect(card.getByText('Payment Pending')).toBeVisible();
  // Until when, in the location's time: the hold the checkout runs on.
  await expect(
    card.getByText(/This session is held for you until \d{1,2}:\d\d (am|pm) AE[DS]T\. Finish paying to confirm it\./),
  ).toBeVisible();
  await expectNoAxeViolations(page);
  await shot(page, 'wide-5-pending');
  // The countdown loads the hold that still runs (named by continue-payment), so it can offer more time.
  const holdLoaded = page.waitForResponse(
    (r) => /\/api\/v1\/bookings\/reservation\/[0-9a-f-]{36}$/.test(r.url()) && r.request().method() === 'GET',
  );
  await card.getByRole('button', { name: 'Continue payment' }).click();
  await expect(page).toHaveURL(/\/create-booking$/);
  const hold = await holdLoaded;
  expect(hold.status()).toBe(200);
  expect(await hold.json()).toMatchObject({ status: 'checked_out', bookingId: booking.id });
  await expect(page.getByText('Amount to pay (incl. GST)')).toBeVisible();
  await expect(page.getByText(dollars(booking.amountCents)).first()).toBeVisible();
  expect((await recordedEvents(page)).map((e) => e.event)).toContain('booking continue');
  await shot(page, 'wide-6-continue-payment');
  await page.getByLabel('Card number').fill('4242 4242 4242 4242');
  await page.getByLabel('Expiry date').fill('12 / 30');
  await page.getByLabel('Security code').fill('123');
  await page.getByLabel('Name on card').fill('Holly Berry');
  await page.getByRole('button', { name: `Pay ${dollars(booking.amountCents)}` }).click();
  await expect(page).toHaveURL(/\/success\?bookingId=/);
  await openBookings(page);
  await expect(cardOf(page, booking.reference).getByText('Confirmed')).toBeVisible();
});

test('a family with no bookings is offered one Book a session button, at 320 px without sideways scrolling', async ({
  page,
  baseURL,
}) => {
  await page.setViewportSize({ width: 320, height: 640 });
  await familyWithSession(page, baseURL!, 'empty');
  await openBookings(page);
  await expect(page.getByText('No upcoming visits with Santa yet.')).toBeVisible();
  // One action, one button: the header's Book a session waits until there is a list to sit above.
  await expect(page.getByRole('button', { name: /^Book/ })).toHaveCount(1);
  expect(await hasHorizontalScroll(page)).toBe(false);
  await expectNoAxeViolations(page);
  await shot(page, 'narrow-0-empty');
  await page.getByRole('tab', { name: 'Past' }).click();
  await expect(page.getByText('Nothing here yet.')).toBeVisible();
  await page.getByRole('tab', { name: 'Upcoming' }).click();
  await page.getByRole('button', { name: 'Book a session' }).click();
  await expect(page).toHaveURL(/\/create-booking$/);
});
