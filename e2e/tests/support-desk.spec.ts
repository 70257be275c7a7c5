import { mkdirSync } from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { bookThroughApi, customerClient } from '../helpers/bookings';
import { appCheckToken, SCREENSHOT_DIR } from '../helpers/app';
import { expectAccessible } from '../helpers/purchase';
import { loadLocationOpenNow, sessionsLaterToday, staffNav } from '../helpers/staff';
import { newStaffMember, signInAndEnrol } from '../helpers/staff-mfa';
import { createVerifiedCustomer } from '../helpers/wizard';

const DIR = `${SCREENSHOT_DIR}/support`;
const LOCATION = 'Kringle Support Desk Test Centre';

/** A family with a name no other test uses, booked for later today: inside its own reschedule cutoff. */
async function familyBookedToday(
  page: Page,
  baseURL: string,
  tag: string,
  slot: { id: string; locationId: string; slotTypeId: string },
) {
  const family = await createVerifiedCustomer(page.request, baseURL, tag);
  const lastName = `Snowdrift${Math.random()
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

/**
 * Issue 34's support journey: a family phones; the support desk finds it by part of its name,
 * moves its booking (already inside the family's reschedule cutoff) to another session today with
 * a reason; the family's e-mail arrives in the development mailbox saying the team made the
 * change, and the booking's audit trail shows who moved it and why. At 390 and 1280 px, axe clean.
 */
for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test(
    `support desk at ${viewport.width} px: find a family, move its booking past the cutoff, the e-mail and the ` +
      `audit`,
    async ({ page, baseURL }) => {
      test.setTimeout(240_000);
      mkdirSync(DIR, { recursive: true });
      await page.setViewportSize(viewport);
      loadLocationOpenNow(LOCATION, `support-desk-${viewport.width}`);
      const { slots } = await sessionsLaterToday(page.request, LOCATION, 2);
      const family = await familyBookedToday(page, baseURL!, `support-${viewport.width}`, slots[0]!);
      const target = slots[1]!;
      await page.context().clearCookies();

      const SUPPORT_EMAIL = await newStaffMember(page, 'support', String(viewport.width));
      await signInAndEnrol(page, SUPPORT_EMAIL);
      // Support sees only what its role may do.
      const nav = await staffNav(page);
      await expect(nav.getByRole('link')).toHaveText(['Run sheet', 'Support', 'Disputes', 'Vouchers'], {
        timeout: 30_000,
      });
      await nav.getByRole('link', { name: 'Support' }).click();
      await expect(page.getByRole('heading', { name: 'Support desk' })).toBeVisible({ timeout: 30_000 });

      // Part of the name, as the family spells it on the phone: results as it is typed.
      await page
        .getByLabel('Find a family')
        .pressSequentially(family.lastName.slice(0, 9).toLowerCase(), { delay: 30 });
      const found = page
        .getByRole('list', { name: 'Families found' })
        .getByRole('listitem')
        .filter({ hasText: family.email });
      await expect(found).toContainText(family.booking.reference, { timeout: 15_000 });
      await expectAccessible(page, `support search ${viewport.width}`);
      await page.screenshot({ path: `${DIR}/${viewport.width}-search.png`, fullPage: true });

      await found.getByRole('link', { name: new RegExp(family.booking.reference) }).click();
      await expect(page.getByRole('heading', { name: new RegExp(family.booking.reference) })).toBeVisible();
      const move = page.getByRole('form', { name: 'Move to another session' });
      await expect(move.locator(`option[value="${target.id}"]`)).toBeAttached({ timeout: 15_000 });
      await move.getByLabel('Free session').selectOption(target.id);
      // A reason is required: the form says so beside the field and sends nothing.
      await move.getByRole('button', { name: 'Move the booking' }).click();
      await expect(move.getByText('Say why in at least 3 characters.')).toBeVisible();
      await move
        .getByLabel('Reason (kept in the audit trail)')
        .fill('Family phoned: the little one has a party at that time');
      await move.getByRole('button', { name: 'Move the booking' }).click();
      // Issue 53 item 8: first what will happen, the new time in the location's zone; nothing moves yet.
      const confirm = move.getByRole('group', { name: new RegExp(`Move booking ${family.booking.reference}`) });
      await expect(confirm).toContainText(`at ${LOCATION} from `);
      await expect(confirm).toContainText(/ to \w{3} \d{1,2} \w{3,4}, \d{1,2}:\d\d [ap]m \S+ \(/);
      await expect(confirm.getByText(/^Move booking/)).toBeFocused();
      await expectAccessible(page, `support move confirm ${viewport.width}`);
      await page.screenshot({ path: `${DIR}/${viewport.width}-move-confirm.png`, fullPage: true });
      await confirm.getByRole('button', { name: 'Yes, move it' }).click();
      await expect(page.getByRole('status').filter({ hasText: 'Moved. The family has been e-mailed.' })).toBeVisible({
        timeout: 15_000,
      });

      const trail = page.getByRole('region', { name: 'Audit trail' });
      await expect(trail).toContainText('Moved by the team');
      await expect(trail).toContainText(SUPPORT_EMAIL);
      await expect(trail).toContainText('Reason: Family phoned: the little one has a party at that time');
      await expectAccessible(page, `support booking ${viewport.width}`);
      await page.screenshot({ path: `${DIR}/${viewport.width}-moved.png`, fullPage: true });

      // A part refund says the amount and what is left before it goes to the card.
      const refund = page.getByRole('form', { name: /^Refund part of the \$[\d.]+ payment$/ });
      await refund.getByLabel(/Amount in dollars/).fill('5');
      await refund.getByLabel('Reason (kept in the audit trail)').fill('Goodwill: the session ran late');
      await refund.getByRole('button', { name: 'Refund' }).click();
      const refundConfirm = refund.getByRole('group', { name: /^Refund \$5\.00 of the/ });
      await expect(refundConfirm).toContainText(/will be left to refund/);
      await expectAccessible(page, `support refund confirm ${viewport.width}`);
      await refundConfirm.screenshot({ path: `${DIR}/${viewport.width}-refund-confirm.png` });
      await refundConfirm.getByRole('button', { name: 'Yes, refund $5.00' }).click();
      await expect(
        page.getByRole('status').filter({ hasText: 'Refunding $5.00. The family has been e-mailed.' }),
      ).toBeVisible({ timeout: 15_000 });

      // The family's e-mail, as the development mailbox shows it.
      await expect
        .poll(async () => {
          const outbox = (await (
            await page.request.get(`/api/v1/dev/outbox?to=${encodeURIComponent(family.email)}`)
          ).json()) as { items: { subject: string; text: string }[] };
          return outbox.items.find((m) => m.subject.startsWith('Moved:'))?.text ?? '';
        })
        .toContain('team made this change');
      await page.goto(`/dev/mailbox?to=${encodeURIComponent(family.email)}`);
      await expect(page.getByText(new RegExp(`Moved: ${family.booking.reference}`)).first()).toBeVisible({
        timeout: 15_000,
      });
    },
  );
}
