import { expect, test, type Page } from '@playwright/test';
import { SCREENSHOT_DIR } from '../helpers/app';
import { CARDS, chooseAndCheckOut, expectAccessible, fillCard, holdASession, stepHeading } from '../helpers/purchase';
import { signInFreshCustomer } from '../helpers/wizard';

const sessionOf = (p: Page) => p.getByTestId('hold-countdown').locator('p > span').nth(1);

/**
 * Issue 37 item 8: two tabs, then reload. One tab goes on to Payment (the booking now waits for
 * payment); the other, still on the same hold, picks another time and loses (one hold per family).
 * It says so and offers the booking waiting for payment; reloaded, it resumes that booking as a
 * single tab resumes its own: at Payment, the same session, the countdown running, and it can pay.
 */
for (const viewport of [
  { name: 'wide', width: 1280, height: 800 },
  { name: 'narrow', width: 390, height: 844 },
]) {
  test(
    `${viewport.name}: the tab that lost to the other tab's checkout, reloaded, resumes at Payment (item ` + `8)`,
    async ({ page, context, baseURL }) => {
      test.setTimeout(150_000);
      await page.setViewportSize(viewport);
      await signInFreshCustomer(page, baseURL!, `two-tabs-reload-${viewport.name}`);
      await holdASession(page, { daysAhead: 3 });
      const other = await context.newPage();
      await other.setViewportSize(viewport);
      await other.goto('/create-booking');
      await expect(stepHeading(other)).toHaveText('Choose your photo package', { timeout: 20_000 });

      // The first tab checks out: the hold is the unpaid booking's now.
      await chooseAndCheckOut(page);
      const held = (await sessionOf(page).textContent())!;

      // The other tab goes back and picks another time: refused, and told what is waiting.
      await other.getByRole('button', { name: 'Back', exact: true }).click();
      await expect(stepHeading(other)).toHaveText('Choose a day and time');
      await other.locator('[data-status="available"]').first().click();
      await expect(
        other.getByText('You already have a session on hold or waiting for payment.', { exact: false }),
      ).toBeVisible({ timeout: 15_000 });
      const offer = other.getByRole('region', { name: 'Your booking is waiting for payment' });
      await expect(offer).toBeVisible();
      await expect(offer.getByRole('button', { name: 'Continue payment' })).toBeVisible();
      await expectAccessible(other, `lost tab at ${viewport.width}`);
      await other.screenshot({ path: `${SCREENSHOT_DIR}/journey-two/${viewport.width}-lost-tab.png`, fullPage: true });

      // Reloaded, it resumes as a single tab does: at Payment, on the same session, the clock running.
      await other.reload();
      await expect(stepHeading(other)).toHaveText('Payment', { timeout: 20_000 });
      await expect(sessionOf(other)).toHaveText(held);
      await expect(other.getByTestId('hold-countdown')).toContainText(/Held for you: \d+:\d\d/);
      const toast = other
        .locator('[data-sonner-toast]')
        .filter({ hasText: 'Your booking is waiting for payment: pay here to confirm it.' });
      await expect(toast).toBeVisible();
      // Spec §9: 50 px from the top; and clear of the page's heading (item 10), beside it or above it.
      const heading = other.getByRole('heading', { name: 'Create Booking', level: 1 });
      await expect
        .poll(async () => {
          // The heading's words, not its block (which spans the column).
          const words = (el: Element) => {
            const range = document.createRange();
            range.selectNodeContents(el);
            const { x, y, width, height } = range.getBoundingClientRect();
            return { x, y, width, height };
          };
          const [t, h] = [(await toast.boundingBox())!, await heading.evaluate(words)];
          return { top: Math.round(t.y), clear: t.y + t.height <= h.y || t.x >= h.x + h.width };
        })
        .toEqual({ top: 50, clear: true });
      await expectAccessible(other, `lost tab reloaded at ${viewport.width}`);
      await other.screenshot({ path: `${SCREENSHOT_DIR}/journey-two/${viewport.width}-lost-tab-reloaded.png` });

      // And the family pays there.
      await fillCard(other, CARDS.success);
      await other.getByRole('button', { name: /^Pay \$/ }).click();
      await expect(other.getByRole('heading', { name: "You're booked in to see Santa!" })).toBeVisible({
        timeout: 30_000,
      });
      await other.close();
    },
  );
}
