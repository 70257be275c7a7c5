import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { bookThroughApi, cardOf, customerClient } from '../helpers/bookings';
import { SCREENSHOT_DIR, signInThroughApi } from '../helpers/app';
import { expectAccessible } from '../helpers/purchase';
import { newStaffMember, signInAndEnrol } from '../helpers/staff-mfa';
import { loadLocationOpenNow, sessionsLaterToday, staffNav } from '../helpers/staff';
import { createVerifiedCustomer } from '../helpers/wizard';

const DIR = `${SCREENSHOT_DIR}/closures`;
const LOCATION = 'Kringle Closures Test Centre';

/** The location's wall clock, as the closure form's datetime-local fields take it. */
function localDateTime(at: string, timeZone: string, plusMinutes = 0): string {
  const instant = new Date(Date.parse(at) + plusMinutes * 60_000);
  const date = new Intl.DateTimeFormat('en-CA', { timeZone }).format(instant);
  const time = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(instant);
  return `${date}T${time}`;
}

/**
 * Issue 35's closure journey: Santa is ill. A manager (1280 px) closes two booked sessions at a
 * location with the "offer a move" remedy, reads the dry run, types the location's name, and
 * watches the job offer each family a held session; one family (390 px) accepts the move from My
 * Bookings, the other takes the refund. Axe clean, screenshots at both widths.
 */
test('closures: a manager closes booked sessions, one family accepts the move, another takes the refund', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(300_000);
  mkdirSync(DIR, { recursive: true });
  loadLocationOpenNow(LOCATION, 'closures-e2e');
  const { location, slots } = await sessionsLaterToday(page.request, LOCATION, 2);
  const { timezone } = location;
  const families = [];
  for (const [i, slot] of slots.entries()) {
    const who = await createVerifiedCustomer(page.request, baseURL!, `closure-${i}`);
    const booking = await bookThroughApi(await customerClient(page.request, who.email, who.password), page.request, {
      slot,
    });
    families.push({ ...who, booking });
  }

  await page.setViewportSize({ width: 1280, height: 900 });
  await signInAndEnrol(page, await newStaffMember(page, 'manager', 'closures'));
  await (await staffNav(page)).getByRole('link', { name: 'Closures' }).click({ timeout: 30_000 });
  await expect(page.getByRole('heading', { name: 'Close sessions' })).toBeVisible({ timeout: 30_000 });
  const form = page.getByRole('form', { name: 'The closure' });
  await form.getByLabel('Location', { exact: true }).selectOption({ label: LOCATION });
  await form.getByLabel("From (the location's time)").fill(localDateTime(slots[0]!.startAt, timezone));
  await form.getByLabel('Until', { exact: true }).fill(localDateTime(slots[1]!.startAt, timezone, 1));
  await form.getByLabel('Reason (the families read it)').fill('Santa is unwell');
  await form.getByLabel('A few words to the families (optional)').fill('We are so sorry, and Santa sends his love.');
  await expect(form.getByRole('radio', { name: /Offer each family another session/ })).toBeChecked();
  await form.getByRole('button', { name: 'Show what this closes' }).click();

  const preview = page.getByRole('region', { name: 'What this closes' });
  for (const f of families)
    await expect(preview.getByRole('list', { name: 'Bookings affected' })).toContainText(f.booking.reference, {
      timeout: 15_000,
    });
  const close = page.getByRole('button', { name: /^Close \d+ sessions?/ });
  await expect(close).toBeDisabled();
  await page.getByLabel(`Type ${LOCATION} to confirm`).fill(LOCATION.toLowerCase());
  await expect(close).toBeDisabled();
  await page.getByLabel(`Type ${LOCATION} to confirm`).fill(LOCATION);
  await expectAccessible(page, 'closure preview 1280');
  await page.screenshot({ path: `${DIR}/1280-preview.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expectAccessible(page, 'closure preview 390');
  await page.screenshot({ path: `${DIR}/390-preview.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await close.click();

  const progress = page.getByRole('region', { name: 'Closure done' });
  await expect(progress).toBeVisible({ timeout: 60_000 });
  for (const f of families)
    await expect(progress.getByRole('row').filter({ hasText: f.booking.reference })).toContainText('Move offered');
  await expectAccessible(page, 'closure done 1280');
  await page.screenshot({ path: `${DIR}/1280-done.png`, fullPage: true });

  // The first family, on a phone: the e-mail's link opens My Bookings, where it takes the held session (asked first:
  // issue 53 item 8).
  const [accepting, refusing] = families;
  await expect
    .poll(async () => {
      const outbox = (await (
        await page.request.get(`/api/v1/dev/outbox?to=${encodeURIComponent(accepting!.email)}`)
      ).json()) as { items: { subject: string }[] };
      return outbox.items.some((m) => m.subject.startsWith('Your session is closed: we are holding'));
    })
    .toBe(true);
  await page.context().clearCookies();
  await page.setViewportSize({ width: 390, height: 844 });
  await signInThroughApi(page, accepting!.email, accepting!.password);
  await page.goto(`/bookings?closure=${accepting!.booking.id}`);
  const card = cardOf(page, accepting!.booking.reference);
  await expect(card.getByRole('heading', { name: 'We had to close this session (Santa is unwell)' })).toBeVisible({
    timeout: 30_000,
  });
  await expectAccessible(page, 'closure offer 390');
  await page.screenshot({ path: `${DIR}/390-offer.png`, fullPage: true });
  await card.getByRole('button', { name: 'Move to this session' }).click();
  const move = page.getByRole('alertdialog', { name: /^Move to .+\?$/ });
  await expect(move).toContainText(`Your booking ${accepting!.booking.reference} moves from`);
  await expect(move).toContainText('Nothing is charged or refunded');
  await expectAccessible(page, 'closure move asked 390');
  await page.screenshot({ path: `${DIR}/390-move-confirm.png` });
  await move.getByRole('button', { name: 'Yes, move my booking' }).click();
  await expect(
    card.getByText('Moved here: we had to close the session you first booked (Santa is unwell).'),
  ).toBeVisible({ timeout: 15_000 });
  await expect(card.getByRole('button', { name: 'Move to this session' })).toHaveCount(0);
  await page.screenshot({ path: `${DIR}/390-moved.png`, fullPage: true });

  // The other family takes the refund instead, on a laptop: the amount said before it happens.
  await page.context().clearCookies();
  await page.setViewportSize({ width: 1280, height: 800 });
  await signInThroughApi(page, refusing!.email, refusing!.password);
  await page.goto(`/bookings?closure=${refusing!.booking.id}`);
  const theirs = cardOf(page, refusing!.booking.reference);
  const refundButton = theirs.getByRole('button', { name: /^Refund me in full \(\$\d+\.\d\d\)$/ });
  await expect(refundButton).toBeVisible({ timeout: 30_000 });
  const amount = /\((\$[\d.]+)\)/.exec((await refundButton.textContent())!)![1]!;
  await refundButton.click();
  const refund = page.getByRole('alertdialog', { name: `Refund ${amount}?` });
  await expect(refund).toContainText(`${amount} goes back to the card you paid with`);
  await expectAccessible(page, 'closure refund asked 1280');
  await page.screenshot({ path: `${DIR}/1280-refund-confirm.png` });
  await refund.getByRole('button', { name: `Yes, refund ${amount}` }).click();
  // Cancelled and refunded, it leaves Upcoming for Past.
  await expect(refund).toHaveCount(0, { timeout: 15_000 });
  await expect(
    page.getByText(`Booking ${refusing!.booking.reference} is cancelled. ${amount} is on its way back to your card`),
  ).toBeVisible();
  await page.screenshot({ path: `${DIR}/1280-refunded.png` });
  await expect(theirs).toHaveCount(0, { timeout: 15_000 });
  const api = await customerClient(page.request, refusing!.email, refusing!.password);
  const after = await api.get<{ status: string; closure: { offer: unknown } }>(`/bookings/${refusing!.booking.id}`);
  expect(after).toMatchObject({ status: 'cancelled', closure: { offer: null } });
});
