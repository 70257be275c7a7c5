import { mkdirSync } from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { SCREENSHOT_DIR } from '../helpers/app';
import { customerClient } from '../helpers/bookings';
import { CARDS, chooseOpenDay, expectAccessible, fillCard, stepHeading, SYDNEY } from '../helpers/purchase';
import { signInFreshCustomer } from '../helpers/wizard';

const DIR = `${SCREENSHOT_DIR}/all-in-prices`;

/** Every dollar amount in a part of the page, in cents ("$79.90" → 7990). */
async function amountsIn(part: Locator): Promise<number[]> {
  const text = (await part.innerText()).replace(/\u00a0/g, ' ');
  return [...text.matchAll(/\$(\d{1,3}(?:,\d{3})*\.\d{2})/g)].map((m) =>
    Math.round(Number(m[1]!.replace(/,/g, '')) * 100),
  );
}

const cents = async (part: Locator) => {
  const [amount, ...more] = await amountsIn(part);
  expect(more, 'one amount').toEqual([]);
  return amount!;
};

async function snap(page: Page, name: string) {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: width > 800 ? 800 : 844 });
    // The layout follows a resize within its throttle (spec §9: 2 s): the tab bar or the sidebar.
    await expect(page.getByTestId(width > 800 ? 'sidebar' : 'bottom-tab-bar')).toBeVisible();
    await page.screenshot({ path: `${DIR}/${width}-${name}.png`, fullPage: true });
  }
}

/**
 * Issue 51, ACL drip pricing: every price shown on the Type, Package, Overview and Payment steps is the price paid,
 * and the PaymentIntent the sandbox holds is for exactly the total shown. On the way, the booking for a business
 * or school: a mistyped ABN is refused beside the field, the right one goes with the checkout.
 */
test('every price the wizard shows is the PaymentIntent’s amount, and a school’s ABN goes with the order', async ({
  page,
  baseURL,
  request,
}) => {
  test.setTimeout(150_000);
  mkdirSync(DIR, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  const customer = await signInFreshCustomer(page, baseURL!, 'all-in');
  await page.goto('/create-booking');
  await expect(stepHeading(page)).toHaveText('Where would you like to visit Santa?', { timeout: 20_000 });
  await page.getByRole('button', { name: new RegExp(`^${SYDNEY}`) }).click();
  await page.getByRole('button', { name: 'Continue' }).click();

  // Type: any price shown here must be a package's full price for that type (none is shown today).
  await expect(stepHeading(page)).toHaveText('What kind of visit?');
  const typePrices = await amountsIn(page.locator('main'));
  const catalogue = page.waitForResponse((r) => r.url().includes('/product/packages') && r.ok());
  await page.getByRole('button', { name: /^Santa photos/ }).click();
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(stepHeading(page)).toHaveText('Choose a day and time');
  // Day 13: clear of the other specs' days.
  await chooseOpenDay(page, 13);
  const free = page.locator('[data-status="available"]');
  await free.nth(Math.floor(Math.random() * (await free.count()))).click();

  // Package: the prices shown are the catalogue's (GST in, no fee), and the total is their sum.
  await expect(stepHeading(page)).toHaveText('Choose your photo package');
  const packages = ((await (await catalogue).json()) as { items: { id: string; name: string; priceCents: number }[] })
    .items;
  for (const price of typePrices) expect(packages.map((p) => p.priceCents)).toContain(price);
  const classic = packages.find((p) => p.name === 'Classic Print')!;
  expect(await amountsIn(page.getByTestId(`item-${classic.id}`))).toContain(classic.priceCents);
  await page.getByRole('radio', { name: /^Classic Print/ }).check();
  let expected = classic.priceCents;
  const extra = packages.find((p) => p.id !== classic.id && p.name !== 'Classic Print');
  const addExtra = extra ? page.getByRole('button', { name: `Add ${extra.name}` }) : null;
  if (extra && addExtra && (await addExtra.count()) === 1 && (await addExtra.isEnabled())) {
    expect(await amountsIn(page.getByTestId(`extra-${extra.id}`))).toContain(extra.priceCents);
    await addExtra.click();
    expected += extra.priceCents;
  }
  const summary = page.getByTestId('order-summary');
  await expect(summary).toContainText(formatCents(expected));
  expect(Math.max(...(await amountsIn(summary)))).toBe(expected);
  await page.getByRole('button', { name: 'Continue' }).first().click();
  await expect(stepHeading(page)).toHaveText('Our booking policy');
  await page.getByRole('checkbox', { name: /accept the booking policy/ }).check();
  await page.getByRole('button', { name: 'Continue' }).click();

  // Overview: each line and the total, the same figures.
  await expect(stepHeading(page)).toHaveText('Check your booking');
  const order = page.getByRole('region', { name: 'Your order' });
  expect(await cents(page.getByTestId('overview-total'))).toBe(expected);
  const lines = await amountsIn(order.getByRole('listitem'));
  expect(lines.reduce((a, b) => a + b, 0)).toBe(expected);
  const form = page.getByRole('form', { name: "Who's coming" });
  if ((await form.getByLabel('First name').count()) === 0)
    await form.getByRole('button', { name: '+ Add a child' }).click();
  await form.getByLabel('First name').first().fill('Mia');
  await form.getByLabel('Age').first().selectOption('6');

  // A booking for a school: a mistyped ABN is said beside the field and nothing is sent.
  const invoice = page.getByRole('region', { name: 'Tax invoice' });
  await invoice.getByRole('checkbox', { name: 'This is a booking for a business or school' }).check();
  await invoice.getByLabel('Business or school name').fill('Bondi Public School');
  await invoice.getByLabel(/^ABN/).fill('51 824 753 557');
  let checkouts = 0;
  page.on('request', (r) => r.url().endsWith('/checkoutOrder') && checkouts++);
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(invoice.getByLabel(/^ABN/)).toBeFocused();
  await expect(invoice.getByLabel(/^ABN/)).toHaveAccessibleDescription(/That ABN is not valid: check its digits\./);
  expect(checkouts).toBe(0);
  await expectAccessible(page, 'ABN refused');
  await snap(page, 'abn-refused');
  await invoice.getByLabel(/^ABN/).fill('51 824 753 556');
  const checkedOut = page.waitForResponse((r) => r.url().endsWith('/checkoutOrder'));
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  const checkout = await checkedOut;
  expect(checkout.status()).toBe(201);
  expect(checkout.request().postDataJSON().business).toEqual({ name: 'Bondi Public School', abn: '51824753556' });
  const { client_secret: clientSecret, amountCents } = (await checkout.json()) as {
    client_secret: string;
    amountCents: number;
  };

  // Payment: the amount to pay and the button say the same, and so does the PaymentIntent in the sandbox.
  await expect(stepHeading(page)).toHaveText('Payment');
  await page.setViewportSize({ width: 1280, height: 800 });
  const pay = page.getByRole('button', { name: /^Pay \$/ });
  expect(await cents(pay)).toBe(expected);
  expect(await cents(page.getByText('Amount to pay (incl. GST)').locator('..'))).toBe(expected);
  // Read as the web app reads it, by a client of the customer's own (not the page's: its cookies are the tab's).
  const api = await customerClient(request, customer.email, customer.password);
  const stripe = await api.get<{ publishableKey: string; sandboxUrl: string }>('/common/stripe-client-secret');
  const intentId = clientSecret.split('_secret_')[0];
  const intent = (await (
    await request.get(`${stripe.sandboxUrl}/v1/payment_intents/${intentId}`, {
      headers: { Authorization: `Bearer ${stripe.publishableKey}` },
      params: { client_secret: clientSecret },
    })
  ).json()) as { amount: number; currency: string };
  expect(intent).toMatchObject({ amount: expected, currency: 'aud' });
  expect(amountCents).toBe(expected);
  await snap(page, 'payment');

  await page.setViewportSize({ width: 1280, height: 800 });
  await fillCard(page, CARDS.success);
  await pay.click();
  await expect(page.getByRole('heading', { name: "You're booked in to see Santa!" })).toBeVisible({ timeout: 30_000 });
  expect(await cents(page.getByTestId('booking-total'))).toBe(expected);
});

const formatCents = (c: number) =>
  new Intl.NumberFormat('en-AU', { style: 'currency', currency: 'AUD' }).format(c / 100);
