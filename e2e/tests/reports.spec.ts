import { mkdirSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { localDateOf } from '@kringle/contracts/dates';
import { formatAud } from '@kringle/contracts/money';
import { bookThroughApi, customerClient } from '../helpers/bookings';
import { SCREENSHOT_DIR } from '../helpers/app';
import { expectAccessible } from '../helpers/purchase';
import { loadLocationOpenNow, sessionsLaterToday, staffNav } from '../helpers/staff';
import { newStaffMember, signInAndEnrol } from '../helpers/staff-mfa';
import { createVerifiedCustomer } from '../helpers/wizard';
import { E2E_CHARITY } from '../helpers/charity';

const DIR = `${SCREENSHOT_DIR}/reports`;

/**
 * Issue 35's reports (decision 0057): a family books and pays online at a location of its own;
 * a manager opens Reports, picks that location and today, and sees the sale (net, GST as on the
 * invoice), the booked session in the occupancy table, the charts, and downloads both CSVs. At
 * 390 and 1280 px, axe clean.
 */
for (const viewport of [
  { width: 390, height: 844 },
  { width: 1280, height: 900 },
]) {
  test(
    `reports at ${viewport.width} px: a manager sees today's sale and occupancy at a location, with charts and ` +
      `CSV`,
    async ({ page, baseURL }) => {
      test.setTimeout(240_000);
      mkdirSync(DIR, { recursive: true });
      await page.setViewportSize(viewport);
      // A location of this attempt's own, so its figures are this test's alone (a retry too).
      const tag = `${viewport.width}-${Math.random().toString(36).slice(2, 7)}`;
      const name = `Kringle Reports ${tag}`;
      loadLocationOpenNow(name, `reports-${tag}`);
      const { location, slots } = await sessionsLaterToday(page.request, name, 1);
      const family = await createVerifiedCustomer(page.request, baseURL!, `reports-${viewport.width}`);
      const booking = await bookThroughApi(
        await customerClient(page.request, family.email, family.password),
        page.request,
        { slot: slots[0]! },
      );
      expect(booking.status).toBe('completed');
      const today = localDateOf(new Date(), location.timezone);
      await page.context().clearCookies();

      await signInAndEnrol(page, await newStaffMember(page, 'manager', String(viewport.width)));
      const nav = await staffNav(page);
      await expect(nav.getByRole('link', { name: 'Reports' })).toBeVisible({ timeout: 30_000 });
      await nav.getByRole('link', { name: 'Reports' }).click();
      await expect(page.getByRole('heading', { name: 'Reports', level: 1 })).toBeVisible({ timeout: 30_000 });
      await expect(page).toHaveURL(/\/staff\/reports$/);

      const form = page.getByRole('form', { name: 'Choose the report' });
      await form.getByLabel('From').fill(today);
      await form.getByLabel('To').fill(today);
      await form.getByLabel('Location').selectOption({ label: name });
      await form.getByRole('button', { name: 'Show' }).click();
      await expect(page.getByRole('status').filter({ hasText: `${today} to ${today}` })).toBeVisible({
        timeout: 15_000,
      });

      const sales = page.getByRole('region', { name: 'Sales table' });
      const total = sales.getByRole('row').filter({ has: page.getByRole('rowheader', { name: 'Total' }) });
      const amount = formatAud(booking.amountCents);
      await expect(total.getByRole('cell')).toHaveText([
        '1',
        amount,
        formatAud(Math.round(booking.amountCents / 11)),
        formatAud(0),
        amount,
        amount,
        formatAud(0),
        // Disputed, and disputes lost: none.
        formatAud(0),
        formatAud(0),
      ]);
      const occupancy = page
        .getByRole('region', { name: 'Occupancy table' })
        .getByRole('row')
        .filter({ hasText: name });
      await expect(occupancy).toHaveCount(1);
      // Location, capacity, booked, held, free, closed, checked in, no-show.
      await expect(occupancy.getByRole('cell').nth(2)).toHaveText('1');
      await expect(page.getByRole('img', { name: /Net sales by day/ })).toBeVisible();
      await expect(page.getByRole('img', { name: /Sessions by day/ })).toBeVisible();
      // The charity's own section (issue 52), apart from the sales.
      const donations = page.getByRole('region', { name: 'Donations', exact: true });
      await expect(donations).toContainText(`Donations to ${E2E_CHARITY}`);
      await expect(donations.getByRole('button', { name: 'Download donations CSV' })).toBeVisible();
      await expectAccessible(page, `reports ${viewport.width}`);
      await page.screenshot({ path: `${DIR}/${viewport.width}-by-day.png`, fullPage: true });

      // Sales by location, then both files for the accountant.
      await form.getByLabel('Sales by').selectOption('location');
      await form.getByRole('button', { name: 'Show' }).click();
      await expect(sales.getByRole('rowheader', { name })).toBeVisible({ timeout: 15_000 });
      const [salesFile] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download sales CSV' }).click(),
      ]);
      expect(salesFile.suggestedFilename()).toBe(`sales-by-location-${today}-${today}.csv`);
      const [occupancyFile] = await Promise.all([
        page.waitForEvent('download'),
        page.getByRole('button', { name: 'Download occupancy CSV' }).click(),
      ]);
      expect(occupancyFile.suggestedFilename()).toBe(`occupancy-${today}-${today}.csv`);
      await expectAccessible(page, `reports by location ${viewport.width}`);
      await page.screenshot({ path: `${DIR}/${viewport.width}-by-location.png`, fullPage: true });
    },
  );
}
