import { mkdirSync } from 'node:fs';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { SCREENSHOT_DIR } from '../helpers/app';
import { E2E_CHARITY } from '../helpers/charity';
import { CARDS, expectAccessible, fillCard, holdASession, toOverview } from '../helpers/purchase';
import { staffNav } from '../helpers/staff';
import { newStaffMember, signInAndEnrol } from '../helpers/staff-mfa';
import { signInFreshCustomer } from '../helpers/wizard';

const DIR = `${SCREENSHOT_DIR}/gift-vouchers`;
const CODE = /[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}-[2-9A-HJ-NP-Z]{4}/;

/** The recipient's e-mail in the dev outbox, and the code in it. */
async function codeFromMail(request: APIRequestContext, to: string): Promise<string> {
  let code: string | undefined;
  await expect
    .poll(
      async () => {
        const res = await request.get(`/api/v1/dev/outbox?to=${encodeURIComponent(to)}`);
        const { items } = (await res.json()) as { items: { subject: string; text: string }[] };
        code = items.find((m) => /gave you a visit to Santa/.test(m.subject))?.text.match(CODE)?.[0];
        return code ?? null;
      },
      { timeout: 20_000, message: `the voucher e-mail to ${to}` },
    )
    .not.toBeNull();
  return code!;
}

const events = (page: Page) =>
  page.evaluate(
    () =>
      (window as unknown as { __kringleAnalytics?: { event: string; params: Record<string, unknown> }[] })
        .__kringleAnalytics ?? [],
  );

/**
 * Issue 52's gift vouchers from end to end: a grandparent buys one by card from "Give a Santa visit"
 * (the sidebar, or the bottom bar on a phone); the recipient adds it from the e-mail's link and books
 * with it and a donation, the voucher paying it all (no card), the rest shown in My Bookings; support
 * finds it and cancels it, the rest going back to the buyer's card. At 390 and 1280 px, axe clean.
 */
for (const [width, height, day] of [
  [390, 844, 10],
  [1280, 900, 16],
] as const) {
  test(`a gift voucher bought, claimed, spent with a donation and cancelled by support, at ${width} px`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(300_000);
    mkdirSync(DIR, { recursive: true });
    const viewport = { width, height };
    const buyer = await (await browser.newContext({ baseURL, viewport })).newPage();
    const family = await (await browser.newContext({ baseURL, viewport })).newPage();
    const staff = await (await browser.newContext({ baseURL, viewport })).newPage();
    const { email: buyerEmail } = await signInFreshCustomer(buyer, baseURL!, `gift-buyer-${width}`);
    const { email: recipientEmail } = await signInFreshCustomer(family, baseURL!, `gift-recipient-${width}`);

    // The buyer: "Give a Santa visit" from the app's navigation.
    await buyer.goto('/bookings');
    // The sidebar, or the bottom bar at 800 px and less: both are "Main", one of them shown.
    const nav = buyer.getByRole('navigation', { name: 'Main' }).filter({ visible: true });
    await nav.getByRole('link', { name: 'Give a Santa visit' }).click();
    await expect(buyer.getByRole('heading', { level: 1, name: 'Give a Santa visit' })).toBeVisible();
    const form = buyer.getByTestId('gift-form');
    await form.getByText('$50', { exact: true }).click();
    await form.getByLabel('Their name').fill('Ruby');
    await form.getByLabel(/Their email address/).fill(recipientEmail);
    await form.getByLabel(/A message for them/).fill('Love, Nana');
    await expectAccessible(buyer, `gift form at ${width} px`);
    await buyer.screenshot({ path: `${DIR}/${width}-gift-form.png`, fullPage: true });
    await form.getByRole('button', { name: 'Continue to payment' }).click();
    await expect(buyer.getByRole('heading', { name: 'Pay for your gift' })).toBeVisible();
    await fillCard(buyer, CARDS.success);
    await buyer.getByRole('button', { name: 'Pay $50.00' }).click();
    const done = buyer.getByTestId('gift-done');
    await expect(done.getByRole('status')).toHaveText('Your $50.00 gift voucher for Ruby is paid.', {
      timeout: 30_000,
    });
    await expect(done.getByRole('button', { name: 'Download certificate' })).toBeVisible();
    await expectAccessible(buyer, `gift paid at ${width} px`);
    await buyer.screenshot({ path: `${DIR}/${width}-gift-paid.png`, fullPage: true });
    // The spec's e-commerce events, the voucher as the one item.
    const recorded = await events(buyer);
    expect(recorded.map((e) => e.event)).toEqual(expect.arrayContaining(['add_to_cart', 'begin_checkout', 'purchase']));
    expect(recorded.find((e) => e.event === 'purchase')?.params).toMatchObject({
      currency: 'AUD',
      value: 50,
      items: [{ item_id: 'gift-voucher', price: 50, quantity: 1 }],
    });

    // The recipient: the e-mail's link puts the code in the fragment; one tap adds it.
    const code = await codeFromMail(family.request, recipientEmail);
    await family.goto(`/gift/redeem#${code}`);
    await expect(family.getByText('Left to spend').locator('..')).toContainText('$50.00');
    await family.getByRole('button', { name: 'Add to my account' }).click();
    await expect(family.getByText(/^Added to your account\./)).toBeVisible();
    // The code left the address bar.
    expect(new URL(family.url()).hash).toBe('');
    await expectAccessible(family, `voucher added at ${width} px`);
    await family.screenshot({ path: `${DIR}/${width}-redeemed.png`, fullPage: true });

    // Booking with it and a $5 donation: $44.95, all paid by the voucher, so no card.
    await holdASession(family, { daysAhead: day });
    await toOverview(family);
    const offer = family.getByRole('group', { name: `Add a donation to ${E2E_CHARITY}?` });
    await offer.getByText('$5', { exact: true }).click();
    await family.getByRole('button', { name: `Use ${code} ($50.00 left)` }).click();
    await expect(family.getByTestId('voucher-line').first()).toHaveText(`Gift voucher ${code}−$44.95`);
    await expect(family.getByTestId('overview-total')).toHaveText('$0.00');
    await expectAccessible(family, `overview paid by a voucher at ${width} px`);
    await family.getByTestId('gift-vouchers').scrollIntoViewIfNeeded();
    await family.screenshot({ path: `${DIR}/${width}-overview.png` });
    await family.getByRole('button', { name: 'Confirm booking' }).click();
    await expect(family.getByRole('heading', { name: "You're booked in to see Santa!" })).toBeVisible({
      timeout: 30_000,
    });
    await family.screenshot({ path: `${DIR}/${width}-confirmed.png`, fullPage: true });
    await family.goto('/bookings');
    const balances = family.getByTestId('voucher-balances');
    await expect(balances).toContainText('Gift vouchers: $5.05 to spend', { timeout: 20_000 });
    await expectAccessible(family, `my bookings with a voucher balance at ${width} px`);
    await family.screenshot({ path: `${DIR}/${width}-bookings.png`, fullPage: true });

    // Support: finds it by the buyer and cancels it; the $5.05 left goes back to the buyer's card.
    await signInAndEnrol(staff, await newStaffMember(staff, 'support', `vouchers-${width}`));
    await (await staffNav(staff)).getByRole('link', { name: 'Vouchers' }).click();
    await expect(staff).toHaveTitle(/^Vouchers \|/);
    await staff.getByRole('searchbox').fill(buyerEmail);
    await staff.getByRole('button', { name: 'Find' }).click();
    const card = staff.getByRole('article', { name: new RegExp(code.slice(-4)) });
    await expect(card.getByText('Balance').locator('..')).toContainText('$5.05');
    await expect(card).toContainText('Spent on a booking');
    await card.getByRole('textbox', { name: /Reason/ }).fill('The buyer asked for the rest back');
    await card.getByRole('button', { name: 'Cancel voucher' }).click();
    await expectAccessible(staff, `support cancelling a voucher at ${width} px`);
    await staff.screenshot({ path: `${DIR}/${width}-support-confirm.png`, fullPage: true });
    await card.getByRole('button', { name: 'Cancel and refund $5.05' }).click();
    await expect(staff.getByText(/cancelled: \$5\.05 back to the card\./)).toBeVisible();
    await expect(card.getByText('Refund to card').locator('..')).toContainText('$5.05');
    await staff.screenshot({ path: `${DIR}/${width}-support-cancelled.png`, fullPage: true });

    // The family's balance is gone.
    await family.reload();
    await expect(family.getByTestId('booking-card').first()).toBeVisible({ timeout: 20_000 });
    await expect(family.getByTestId('voucher-balances')).toHaveCount(0);
  });
}
