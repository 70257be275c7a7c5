import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { SCREENSHOT_DIR } from '../helpers/app';
import { chooseAndCheckOut, expectAccessible, fillCard, holdASession } from '../helpers/purchase';
import { staffNav } from '../helpers/staff';
import { newStaffMember, signInAndEnrol } from '../helpers/staff-mfa';
import { signInFreshCustomer } from '../helpers/wizard';

const DIR = `${SCREENSHOT_DIR}/disputes`;
/** Stripe's test card that pays, then is disputed by the cardholder as fraudulent. */
const DISPUTE_CARD = '4000 0000 0000 0259';

/**
 * Issue 56's chargeback journey: a family pays with the dispute card; support opens Disputes, reads
 * the evidence Kringle drafted (the policy accepted at checkout, the address paid from, the receipt,
 * the e-mails), exactly as it will be sent, and submits it with a statement; Stripe's test word in
 * it wins the dispute. The booking's page says it was disputed. Axe clean at 390 and 1280 px.
 */
test('a disputed payment: support reads the drafted evidence and submits it with a statement', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(240_000);
  mkdirSync(DIR, { recursive: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await signInFreshCustomer(page, baseURL!, 'dispute');
  await holdASession(page, { daysAhead: 3 });
  await chooseAndCheckOut(page);
  await fillCard(page, DISPUTE_CARD);
  await page.getByRole('button', { name: /^Pay \$/ }).click();
  await expect(page.getByRole('heading', { name: "You're booked in to see Santa!" })).toBeVisible({ timeout: 30_000 });
  const reference = (await page.getByTestId('booking-reference').textContent())!.trim();
  await page.context().clearCookies();

  const SUPPORT = await newStaffMember(page, 'support', 'disputes');
  await signInAndEnrol(page, SUPPORT);
  await (await staffNav(page)).getByRole('link', { name: 'Disputes' }).click();
  await expect(page.getByRole('heading', { name: 'Disputed payments' })).toBeVisible({ timeout: 30_000 });
  const card = page.locator('article[data-dispute]').filter({ hasText: reference });
  // The dispute arrives by webhook a moment after the payment, and its draft after it.
  await expect(async () => {
    await page.reload();
    await expect(card.getByText('(saved on Stripe as a draft)')).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 30_000 });
  await expect(card.locator('[data-status]')).toHaveText('Needs your evidence');
  await expect(card).toContainText('The cardholder says they did not make this payment');
  for (const label of [
    'Customer e-mail',
    'Address the payment came from',
    'Session date',
    'Refund policy the family accepted',
    'Receipts',
    'E-mails sent to the family',
  ])
    await expect(card.getByRole('term').filter({ hasText: label })).toBeVisible();
  await expect(card).toContainText('accepted before payment');
  // The receipt goes to Stripe as the tax invoice's PDF, uploaded when the draft was staged.
  await expect(card).toContainText('(sent as the tax invoice, a PDF)');
  await expect(card).toContainText(`Tax invoice for booking ${reference}`);
  await expectAccessible(page, 'disputes at 390 px');
  await page.screenshot({ path: `${DIR}/disputes-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 900 });
  await expectAccessible(page, 'disputes at 1280 px');
  await page.screenshot({ path: `${DIR}/disputes-1280.png`, fullPage: true });

  const statement = card.getByLabel(/Your statement to the bank/);
  await card.getByRole('button', { name: 'Submit evidence' }).click();
  await expect(card.getByText('Say why in at least 3 characters.')).toBeVisible();
  // Stripe's test mode decides a submitted dispute by a word in the statement.
  await statement.fill('The family booked, accepted our policy at checkout and came to its session. winning_evidence');
  await card.getByRole('button', { name: 'Submit evidence' }).click();
  await expect(card.locator('[data-status]')).toHaveText('Won: the payment stands', { timeout: 20_000 });
  await expect(card).toContainText(`by ${SUPPORT}`);
  await expect(card.getByRole('button', { name: 'Submit evidence' })).toHaveCount(0);
  await page.screenshot({ path: `${DIR}/disputes-submitted-1280.png`, fullPage: true });

  await card.getByRole('link', { name: reference }).click();
  await expect(page.getByText(/disputed with the bank \((won|under review)\)/)).toBeVisible({ timeout: 20_000 });
});
