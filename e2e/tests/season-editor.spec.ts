import { mkdirSync, readFileSync } from 'node:fs';
import { expect, test } from '@playwright/test';
import { SCREENSHOT_DIR } from '../helpers/app';
import { expectAccessible } from '../helpers/purchase';
import { loadLocationOpenNow, staffNav } from '../helpers/staff';
import { newStaffMember, signInAndEnrol } from '../helpers/staff-mfa';

const DIR = `${SCREENSHOT_DIR}/season`;

/**
 * Issue 35's season editor: a manager opens the Season page, closes a location half an hour later
 * every day, sets when its bookings open and its waiting room, previews what that does (three
 * 10-minute sessions more on each of the 7 days, nothing removed, and each other change listed, a
 * price among them), saves, and downloads the new season file. At 1280 and 390 px, axe clean.
 */
for (const viewport of [
  { width: 1280, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`season editor at ${viewport.width} px: change a location's hours, preview, save, download`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    mkdirSync(DIR, { recursive: true });
    await page.setViewportSize(viewport);
    // The live season is this location's file alone (standard sessions 10:00-17:30 every day for 7 days, from about
    // 11:00 local).
    const location = `Kringle Season Editor Centre ${viewport.width}`;
    loadLocationOpenNow(location, `season-editor-${viewport.width}`);

    await signInAndEnrol(page, await newStaffMember(page, 'manager', String(viewport.width)));
    await (await staffNav(page)).getByRole('link', { name: 'Season' }).click();
    await expect(page.getByRole('heading', { name: 'Season', level: 1 })).toBeVisible({ timeout: 30_000 });
    await expect(page.getByLabel('Location to edit')).toHaveValue('0');
    await expect(page.getByLabel('Location to edit').locator('option:checked')).toHaveText(location);
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();

    await page.getByLabel('Closes (hours 1)').fill('18:00');
    // Issue 53 item 7: bookings open at a set time, the location's own (a fixed-offset zone here), with a waiting room.
    const opening = page.getByRole('group', { name: 'Bookings open' });
    await opening.getByLabel('At a set time (a fair start)').check();
    const at = opening.getByLabel(/^Opening time \(/);
    const day = (await at.inputValue()).slice(0, 10);
    await at.fill(`${day}T10:15`);
    await opening.getByLabel('Waiting room opens (minutes before, 0 for none)').fill('45');
    // Issue 53 item 6: a price change is listed before saving (put back before the save: prices are every location's).
    const price = page.getByRole('group', { name: 'Package classic-print' }).getByLabel('Price ($)');
    await price.fill('42.95');
    await page.getByRole('button', { name: 'Preview changes' }).click();
    const preview = page.getByTestId('season-preview');
    await expect(preview).toContainText('This change adds 21 sessions, removes 0 and changes 0.');
    await expect(preview).toContainText('It also changes 4 things:');
    await expect(preview).toContainText('Package Classic Print: price $39.95 → $42.95');
    await expect(preview).toContainText(
      new RegExp(`Location ${location}: bookings open as soon as saved → \\w{3} \\d{1,2} \\w{3,4}, 10:15 am \\S+`),
    );
    await expect(preview).toContainText(`Location ${location}: waiting room none → opens 45 minutes before`);
    await expectAccessible(page, `season preview ${viewport.width}`);
    await page.screenshot({ path: `${DIR}/${viewport.width}-preview.png`, fullPage: true });

    await price.fill('39.95');
    await page.getByRole('button', { name: 'Preview changes' }).click();
    await expect(preview).toContainText('It also changes 3 things:');
    await expect(preview).not.toContainText('Classic Print');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(
      page.getByRole('status').filter({
        hasText:
          /Saved as version \d+: 21 sessions added, 0 removed, 0 changed\. 3 changes to prices and settings applied\./,
      }),
    ).toBeVisible({ timeout: 15_000 });
    await expectAccessible(page, `season saved ${viewport.width}`);
    await page.screenshot({ path: `${DIR}/${viewport.width}-saved.png` });

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download season file' }).click(),
    ]);
    const file = JSON.parse(readFileSync((await download.path())!, 'utf8')) as {
      locations: {
        name: string;
        sessions: { slotType: string; hours: string }[];
        salesOpenAt?: string;
        queue?: unknown;
      }[];
    };
    expect(file.locations.map((l) => l.name)).toEqual([location]);
    expect(file.locations[0]!.sessions[0]).toMatchObject({ slotType: 'standard', hours: '10:00-18:00' });
    expect(file.locations[0]).toMatchObject({ salesOpenAt: `${day}T10:15`, queue: { opensMinutesBefore: 45 } });
  });
}
