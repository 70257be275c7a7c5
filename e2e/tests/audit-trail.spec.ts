import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { bookThroughApi, customerClient } from '../helpers/bookings';
import { appCheckToken, SCREENSHOT_DIR } from '../helpers/app';
import { expectAccessible } from '../helpers/purchase';
import { loadLocationOpenNow, sessionsLaterToday } from '../helpers/staff';
import { newStaffMember, signInAndEnrol } from '../helpers/staff-mfa';
import { createVerifiedCustomer } from '../helpers/wizard';

const DIR = `${SCREENSHOT_DIR}/audit`;
const LOCATION = 'Kringle Audit Trail Test Centre';

/** A family with a name no other test uses (a change the trail records), booked for later today. */
async function familyBooked(
  page: Page,
  baseURL: string,
  tag: string,
  slot: { id: string; locationId: string; slotTypeId: string },
) {
  const family = await createVerifiedCustomer(page.request, baseURL, tag);
  const lastName = `Frostwick${Math.random()
    .toString(36)
    .replace(/[^a-z]/g, '')
    .slice(0, 6)}`;
  const token = await appCheckToken(page.request);
  const appCheck: Record<string, string> = token ? { 'X-App-Check': token } : {};
  const signIn = await page.request.post('/api/v1/auth/sign-in', {
    data: { email: family.email, password: family.password },
    headers: appCheck,
  });
  const { idToken } = (await signIn.json()) as { idToken: string };
  const renamed = await page.request.patch('/api/v1/user/me', {
    data: { lastName },
    headers: { ...appCheck, Authorization: `Bearer ${idToken}` },
  });
  expect(renamed.status(), await renamed.text()).toBe(200);
  const booking = await bookThroughApi(
    await customerClient(page.request, family.email, family.password),
    page.request,
    { slot },
  );
  return { ...family, lastName, booking };
}

const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * Issue 53 item 9: the manager's audit trail found by family, booking reference, staff e-mail and
 * the location's local day, each entry in plain words (no internal state names, no raw ids to
 * type). At 390 and 1280 px, axe clean.
 */
for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test(`audit trail at ${viewport.width} px: by family, reference, staff e-mail and day, in plain words`, async ({
    page,
    baseURL,
  }) => {
    test.setTimeout(240_000);
    mkdirSync(DIR, { recursive: true });
    await page.setViewportSize(viewport);
    loadLocationOpenNow(LOCATION, `audit-trail-${viewport.width}`);
    const { slots } = await sessionsLaterToday(page.request, LOCATION, 1);
    const family = await familyBooked(page, baseURL!, `audit-${viewport.width}`, slots[0]!);
    await page.context().clearCookies();

    const MANAGER = await newStaffMember(page, 'manager', `audit${viewport.width}`);
    await signInAndEnrol(page, MANAGER);
    await page.goto('/staff/support/audit');
    await expect(page.getByRole('heading', { name: 'Audit trail' })).toBeVisible({ timeout: 30_000 });
    const form = page.getByRole('form', { name: 'Filter the audit trail' });
    const list = page
      .getByRole('list')
      .filter({ has: page.getByRole('listitem') })
      .last();
    const status = page.getByRole('status').filter({ hasText: /entr(y|ies)|Loading/ });
    const show = async (fields: Record<string, string>) => {
      await form.getByRole('button', { name: 'Clear' }).click();
      for (const [name, value] of Object.entries(fields)) await form.getByLabel(name, { exact: true }).fill(value);
      await form.getByRole('button', { name: 'Show' }).click();
    };

    // By part of the family's name, as it is said on the phone.
    await show({ Family: family.lastName.slice(0, 8).toLowerCase() });
    await expect(status).toHaveText(/^\d+ entr/, { timeout: 15_000 });
    await expect(list).toContainText('Family changed its name or phone');
    await expect(list).toContainText('Changed: last name');
    await expect(list).toContainText('Paid and confirmed');
    await expect(list).toContainText('Status: Awaiting payment → Confirmed');
    await expect(list).toContainText(family.booking.reference);
    await expect(list).not.toContainText(/\b(checked_in|payment_pending|confirmPaid|new →)/);
    await expectAccessible(page, `audit by family ${viewport.width}`);
    await page.screenshot({ path: `${DIR}/${viewport.width}-family.png`, fullPage: true });

    // By booking reference (any case) and the location's days: today is in, a week ago is not.
    await show({
      'Booking reference': family.booking.reference.toLowerCase(),
      'From (day)': day(-1),
      'To (day)': day(1),
    });
    await expect(list).toContainText('Paid and confirmed', { timeout: 15_000 });
    await expect(list).not.toContainText('Family changed its name or phone');
    await expect(page).toHaveURL(/reference=/);
    await show({ 'Booking reference': family.booking.reference, 'From (day)': day(-8), 'To (day)': day(-7) });
    await expect(status).toHaveText('0 entries', { timeout: 15_000 });
    await expect(page.getByText('Nothing recorded yet.')).toBeVisible();

    // By staff e-mail: the changes to the manager's own account, named in words.
    await show({ 'Staff e-mail': MANAGER.slice(0, 14) });
    await expect(list).toContainText('Staff member invited', { timeout: 15_000 });
    await expect(list).toContainText('Staff invitation accepted');
    await expect(list).toContainText(`Staff member ${MANAGER}`);
    await expect(list).toContainText('Invitation: Pending → Accepted');
    await expectAccessible(page, `audit by staff ${viewport.width}`);
    await page.screenshot({ path: `${DIR}/${viewport.width}-staff.png`, fullPage: true });
  });
}
