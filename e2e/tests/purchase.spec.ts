import { readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { recordedEvents, signInFreshCustomer } from '../helpers/wizard';
import {
  CARDS,
  expectAccessible,
  fillCard,
  holdASession,
  shot,
  stepHeading,
  upcomingReferences,
} from '../helpers/purchase';

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

for (const viewport of VIEWPORTS) {
  test(`a family books and pays with 4242 4242 4242 4242 at ${viewport.width} px`, async ({ page, baseURL }) => {
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const customer = await signInFreshCustomer(page, baseURL!, `buy-${viewport.width}`);
    await holdASession(page, { daysAhead: 4 });

    // Package: live totals, always in view, and the cart.
    const total = page.getByTestId('cart-total');
    await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
    await page.getByRole('radio', { name: /^Classic Print/ }).check();
    await page.getByRole('button', { name: 'Add one Photo ornament' }).click();
    await expect(total).toHaveText('$59.90');
    await expect(total).toBeInViewport();
    await expect(page.getByRole('timer')).toBeInViewport();
    await expectAccessible(page, 'package');
    await shot(page, '4-package');

    await page.getByRole('button', { name: /View cart/ }).click();
    const cart = page.getByRole('dialog', { name: 'Your cart' });
    await expect(cart).toContainText('1 × Photo ornament');
    await cart.getByRole('button', { name: 'Remove Photo ornament' }).click();
    await expect(total).toHaveText('$39.95');
    await expectAccessible(page, 'cart');
    await shot(page, '4-cart');
    await cart.getByRole('button', { name: 'Undo removing Photo ornament' }).click();
    await expect(total).toHaveText('$59.90');
    await cart.getByRole('button', { name: 'Keep going' }).click();

    // Policy: this booking's dates, to be accepted.
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect(stepHeading(page)).toHaveText('Our booking policy');
    await expect(page.getByTestId('policy-dates')).toContainText(
      /Free reschedule until \w{3} \d{1,2} \w{3,4}, \d{1,2}:\d{2} [ap]m AE[DS]T/,
    );
    await expect(page.getByTestId('policy-dates')).toContainText(/cancel/);
    await expect(page.getByRole('button', { name: 'Continue' })).toBeDisabled();
    await page.getByRole('checkbox', { name: /accept the booking policy/ }).check();
    await expectAccessible(page, 'policy');
    await shot(page, '5-policy');
    await page.getByRole('button', { name: 'Continue' }).click();

    // Overview: everything, with GST and the total.
    await expect(stepHeading(page)).toHaveText('Check your booking');
    await expect(page.getByTestId('overview-total')).toHaveText('$59.90');
    await expect(page.getByText('GST included')).toBeVisible();
    await expect(page.getByTestId('overview-session')).toContainText(/AE[DS]T$/);
    await expectAccessible(page, 'overview');
    await shot(page, '6-overview');
    await page.getByRole('button', { name: 'Continue to payment' }).click();

    // Payment: the sandbox card form, the countdown still running.
    await expect(stepHeading(page)).toHaveText('Payment');
    await expect(page.getByRole('timer')).toBeVisible();
    await fillCard(page, CARDS.success);
    await expectAccessible(page, 'payment');
    await shot(page, '7-payment');
    await page.getByRole('button', { name: 'Pay $59.90' }).click();

    // /success waits for the webhook, then shows the booking.
    await expect(page).toHaveURL(/\/success\?bookingId=/);
    await expect(page.getByRole('heading', { name: "You're booked in to see Santa!" })).toBeVisible({
      timeout: 20_000,
    });
    const reference = (await page.getByTestId('booking-reference').textContent())!.trim();
    expect(reference).toMatch(/^KR-/);
    await expect(page.getByTestId('booking-session')).toContainText(/AE[DS]T$/);
    await expect(page.getByTestId('booking-total')).toHaveText('$59.90');
    await expect(page.getByRole('button', { name: 'Add to calendar' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Go to My Bookings' })).toHaveAttribute('href', '/bookings');
    await expectAccessible(page, 'success');
    await shot(page, '8-success');

    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Add to calendar' }).click();
    const ics = await download;
    expect(ics.suggestedFilename()).toBe(`santa-photos-${reference}.ics`);
    // The API's file: the session in the location's own zone.
    const icsText = readFileSync((await ics.path())!, 'utf8');
    expect(icsText).toContain(reference);
    expect(icsText).toMatch(/DTSTART;TZID=Australia\/Sydney:\d{8}T\d{6}/);

    const events = await recordedEvents(page);
    const names = events.map((e) => e.event);
    for (const name of ['add_to_cart', 'remove_from_cart', 'view_cart', 'begin_checkout', 'purchase', 'add_booking'])
      expect(names).toContain(name);
    const purchase = events.find((e) => e.event === 'purchase')!;
    expect(purchase.params).toMatchObject({ currency: 'AUD', value: 59.9, transaction_id: reference });
    expect(purchase.params.items).toHaveLength(2);

    // My Bookings opens at its top, wherever /success was scrolled to (it kept the old scroll).
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.getByRole('link', { name: 'Go to My Bookings' }).click();
    await expect(page.getByRole('heading', { name: 'My Bookings', level: 1 })).toBeInViewport({ timeout: 20_000 });
    await expect(page.getByRole('tab', { name: /Upcoming/ })).toBeInViewport();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);

    // The booking is confirmed and upcoming; the wizard starts afresh.
    expect(await upcomingReferences(page, customer.email, customer.password)).toContainEqual(
      expect.objectContaining({ reference, status: 'completed' }),
    );
    await page.goto('/create-booking');
    await expect(stepHeading(page)).toHaveText('Where would you like to visit Santa?', { timeout: 20_000 });
  });
}
