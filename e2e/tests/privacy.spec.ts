import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { SCREENSHOT_DIR } from '../helpers/app';
import { expectAccessible, holdASession, payFromOverview, stepHeading, toOverview } from '../helpers/purchase';
import { staffNav } from '../helpers/staff';
import { newStaffMember, signInAndEnrol } from '../helpers/staff-mfa';
import { signInFreshCustomer } from '../helpers/wizard';

const DIR = `${SCREENSHOT_DIR}/privacy`;

async function snap(page: Page, name: string) {
  await page.screenshot({ path: `${DIR}/${page.viewportSize()!.width}-${name}.png`, fullPage: true });
}

/** The support desk's search for `term`: the families it lists (the status line says how many). */
async function supportFinds(desk: Page, term: string) {
  const search = desk.getByLabel('Find a family');
  await search.fill('');
  await search.fill(term);
  await expect(desk.getByRole('status').filter({ hasText: /famil(y|ies) found/ })).toBeVisible({ timeout: 15_000 });
  return desk
    .getByRole('list', { name: 'Families found' })
    .getByRole('listitem')
    .filter({ has: desk.getByRole('heading', { level: 2 }) });
}

/**
 * Issue 38 at 390 px: a sensory need booked with the parent's consent, the family's data downloaded
 * and read, the account deleted with its upcoming booking (refund e-mail in the dev mailbox),
 * sign-in refused afterwards, and the support desk (a member signed in with the second step, in a
 * browser of its own) finding the family before the deletion and no longer after it.
 */
test('book with a sensory need, download the data, delete the account at 390 px', async ({
  page,
  baseURL,
  browser,
}) => {
  test.setTimeout(240_000);
  mkdirSync(DIR, { recursive: true });
  await page.setViewportSize({ width: 390, height: 844 });
  const customer = await signInFreshCustomer(page, baseURL!, 'privacy');
  // Day 11: clear of the other specs' days.
  await holdASession(page, { daysAhead: 11 });
  await toOverview(page);

  // The consent is asked beside the need, and required.
  const form = page.getByRole('form', { name: "Who's coming" });
  await expect(page.getByRole('link', { name: 'Privacy policy' }).first()).toHaveAttribute('href', '/privacy');
  await form.getByRole('button', { name: '+ Add a child' }).click();
  await form.getByLabel('First name').fill('Mia');
  await form.getByLabel('Age').selectOption('6');
  const consent = form.getByRole('checkbox', { name: /I agree that these access needs may be kept/ });
  await expect(consent).toHaveCount(0);
  await form.getByLabel('A quieter, sensory-friendly approach').check();
  await expect(consent).toBeVisible();
  await page.getByRole('button', { name: 'Continue to payment' }).click();
  await expect(form.getByText('Tick the box to agree, or remove the access needs and note.')).toBeVisible();
  await expect(stepHeading(page)).toHaveText('Check your booking');
  await consent.check();
  await page.evaluate(() => window.scrollTo(0, 0));
  await expectAccessible(page, 'details with consent');
  await snap(page, 'consent');
  const reference = await payFromOverview(page);

  // Download my data, from the profile, and read it.
  await page.goto('/bookings');
  await page.getByTestId('bottom-tab-bar').getByRole('button', { name: 'Profile' }).click();
  // "Your data" has its own entry in the account menu, not inside "Edit name and phone" (issue 53 item 15).
  await page.getByRole('menuitem', { name: 'Edit name and phone' }).click();
  await expect(page.getByRole('dialog', { name: 'Your details' }).getByLabel('First name')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Download my data' })).toHaveCount(0);
  await page.keyboard.press('Escape');
  await page.getByTestId('bottom-tab-bar').getByRole('button', { name: 'Profile' }).click();
  await page.getByRole('menuitem', { name: 'Your data' }).click();
  const dialog = page.getByRole('dialog', { name: 'Your data' });
  await expect(dialog.getByRole('button', { name: 'Download my data' })).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Delete my account' })).toBeVisible();
  await expectAccessible(page, 'your data');
  await snap(page, 'profile');
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, 'your-data');
  await page.setViewportSize({ width: 390, height: 844 });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Download my data' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^my-data-\d{4}-\d{2}-\d{2}\.json$/);
  const data = JSON.parse(readFileSync((await download.path())!, 'utf8'));
  expect(data.account[0].email).toBe(customer.email);
  expect(data.bookings.map((b: { reference: string }) => b.reference)).toEqual([reference]);
  expect(data.details[0].details).toMatchObject({ children: [{ firstName: 'Mia', age: 6 }], accessNeeds: ['sensory'] });
  expect(data.consents).toEqual([
    expect.objectContaining({ kind: 'access_needs', wordingVersion: expect.any(String) }),
  ]);

  // Support finds the family, for now (the check after the deletion must be able to fail).
  const desk = await (await browser.newContext({ baseURL, viewport: { width: 390, height: 844 } })).newPage();
  await signInAndEnrol(desk, await newStaffMember(desk, 'support', 'privacy'));
  await (await staffNav(desk)).getByRole('link', { name: 'Support' }).click();
  await expect(desk.getByRole('heading', { name: 'Support desk' })).toBeVisible({ timeout: 30_000 });
  await expect(await supportFinds(desk, customer.email)).toHaveCount(1);

  // Delete my account: password and e-mail, then the second confirmation naming the booking.
  await dialog.getByRole('button', { name: 'Delete my account' }).click();
  await dialog.getByRole('textbox', { name: 'Your password' }).fill(customer.password);
  await dialog.getByLabel(/Type your e-mail address/).fill(customer.email);
  await expectAccessible(page, 'delete my account');
  await snap(page, 'delete');
  await dialog
    .getByRole('form', { name: 'Delete my account' })
    .getByRole('button', { name: 'Delete my account' })
    .click();
  await expect(dialog.getByRole('alert')).toContainText(reference);
  await expectAccessible(page, 'delete: upcoming bookings');
  await snap(page, 'delete-upcoming');
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, 'delete-upcoming');
  await page.setViewportSize({ width: 390, height: 844 });
  await dialog.getByRole('button', { name: 'Cancel them and delete my account' }).click();
  await expect(page).toHaveURL(/\/(login|register)/, { timeout: 15_000 });

  // The refund e-mail arrives in the dev mailbox.
  await expect
    .poll(
      async () => {
        const outbox = (await (
          await page.request.get(`/api/v1/dev/outbox?to=${encodeURIComponent(customer.email)}`)
        ).json()) as { items: { subject: string; text: string }[] };
        return outbox.items.find((m) => m.subject.includes(reference) && /cancel/i.test(m.subject))?.text ?? '';
      },
      { timeout: 30_000 },
    )
    .toMatch(/refund/i);

  // Sign-in is refused.
  await page.goto('/login');
  await page.getByLabel('Email address').fill(customer.email);
  await page.getByLabel('Password', { exact: true }).fill(customer.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByText('The email address or password is incorrect.')).toBeVisible();
  await snap(page, 'sign-in-refused');

  // As support, the family is no longer found: not by its e-mail, nor by its booking's reference.
  for (const term of [customer.email, reference]) {
    await expect(await supportFinds(desk, term), term).toHaveCount(0);
    await expect(desk.getByRole('status').filter({ hasText: '0 families found.' })).toBeVisible();
  }
  await expectAccessible(desk, 'support finds no one');
  await snap(desk, 'support-not-found');
  await desk.context().close();

  // The policy, public.
  await page.goto('/privacy');
  await expect(page.getByRole('heading', { name: 'Privacy policy', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: 'How long we keep it' })).toBeVisible();
  await expectAccessible(page, 'privacy page');
  await snap(page, 'policy');
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, 'policy');
});

/**
 * Issue 51: the children's notice at /privacy, before the full policy; the family's two choices in "Your data",
 * off by default, each on and off again in one tap (the API's record says so), at 390 and 1280 px.
 */
test("the children's notice beside the policy, and the choices off by default, withdrawn in one tap", async ({
  page,
  baseURL,
}) => {
  mkdirSync(DIR, { recursive: true });
  // Signed in first: the app's stored session is seeded before its first page.
  await signInFreshCustomer(page, baseURL!, 'choices');
  await page.goto('/privacy');
  const notice = page.getByRole('complementary', { name: 'For children (and the grown-ups reading with them)' });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('we keep your first name and how old you are');
  await expect(notice).toContainText(/We delete these details \d+ days after your visit/);
  await expect(page.getByRole('heading', { name: 'How long we keep it' })).toBeVisible();
  // The notice comes first: a child reads it before the grown-ups' policy.
  const order = await page.getByRole('heading', { level: 2 }).allTextContents();
  expect(order[0]).toBe('For children (and the grown-ups reading with them)');
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await expectAccessible(page, `children's notice at ${width}`);
    await snap(page, 'childrens-notice');
  }

  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/bookings');
  await page.getByTestId('bottom-tab-bar').getByRole('button', { name: 'Profile' }).click();
  await page.getByRole('menuitem', { name: 'Your data' }).click();
  const dialog = page.getByRole('dialog', { name: 'Your data' });
  const news = dialog.getByRole('switch', { name: 'Send me news and offers by e-mail' });
  const photos = dialog.getByRole('switch', { name: "Let the brand show our family's photos" });
  await expect(news).toHaveAttribute('aria-checked', 'false');
  await expect(photos).toHaveAttribute('aria-checked', 'false');
  await expect(photos).toHaveAccessibleDescription(/for the next 12 months/);
  await expectAccessible(page, 'your choices off');
  await snap(page, 'choices-off');

  const put = (kind: string) =>
    page.waitForResponse((r) => r.url().endsWith(`/user/consents/${kind}`) && r.request().method() === 'PUT');
  let answered = put('photo_showcase');
  await photos.click();
  let answer = await answered;
  expect(answer.request().postDataJSON()).toEqual({ given: true, wordingVersion: expect.any(String) });
  await expect(photos).toHaveAttribute('aria-checked', 'true');
  await expect(dialog.getByText(/^On until \d+ \w+ \d{4}\.$/)).toBeVisible();
  await expect(news).toHaveAttribute('aria-checked', 'false');
  await snap(page, 'choices-photos-on');
  await page.setViewportSize({ width: 1280, height: 800 });
  await snap(page, 'choices-photos-on');

  // Withdrawn in one tap: one PUT, off at once, and off still when the dialog opens again.
  answered = put('photo_showcase');
  await photos.click();
  answer = await answered;
  expect(answer.request().postDataJSON()).toEqual({ given: false });
  expect((await answer.json()).given).toBe(false);
  await expect(photos).toHaveAttribute('aria-checked', 'false');
  await page.keyboard.press('Escape');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await page.getByTestId('bottom-tab-bar').getByRole('button', { name: 'Profile' }).click();
  await page.getByRole('menuitem', { name: 'Your data' }).click();
  await expect(dialog.getByRole('switch', { name: "Let the brand show our family's photos" })).toHaveAttribute(
    'aria-checked',
    'false',
  );
});
