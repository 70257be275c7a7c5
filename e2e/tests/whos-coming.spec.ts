import { mkdirSync } from 'node:fs';
import { expect, test, type Locator } from '@playwright/test';
import jsQR from 'jsqr';
import { PNG } from 'pngjs';
import { cardOf, customerClient } from '../helpers/bookings';
import { SCREENSHOT_DIR } from '../helpers/app';
import { expectAccessible, holdASession, payFromOverview, stepHeading, toOverview } from '../helpers/purchase';
import { signInFreshCustomer } from '../helpers/wizard';

const VIEWPORTS = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

interface BookingWithDetails {
  id: string;
  reference: string;
  status: string;
  checkInCode: string | null;
  details: { children: { firstName: string; age: number }[]; adults: number; accessNeeds: string[] } | null;
}

/** What a phone camera would read: the on-screen QR code, screenshotted and decoded. */
async function decodeQr(qr: Locator, path: string): Promise<string | null> {
  // In the middle of the screen, clear of the phone layout's fixed bottom bar.
  await qr.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  const png = PNG.sync.read(await qr.locator('svg').screenshot({ path }));
  return jsQR(new Uint8ClampedArray(png.data), png.width, png.height)?.data ?? null;
}

for (const viewport of VIEWPORTS) {
  test(`who's coming and the check-in QR code at ${viewport.width} px`, async ({ page, baseURL }) => {
    test.setTimeout(150_000);
    const dir = `${SCREENSHOT_DIR}/whos-coming`;
    mkdirSync(dir, { recursive: true });
    await page.setViewportSize(viewport);
    const customer = await signInFreshCustomer(page, baseURL!, `who-${viewport.width}`);
    // Day 7: clear of the other specs' days (purchases 1 to 4, wizard 5, reschedules 6).
    await holdASession(page, { daysAhead: 7 });
    await toOverview(page);

    // Who's coming: required before Payment, with readable inline errors.
    const form = page.getByRole('form', { name: "Who's coming" });
    await form.getByRole('button', { name: '+ Add a child' }).click();
    // Nothing typed yet, so nothing red yet (issue 53 item 5): errors come on leaving a field or sending.
    await expect(form.getByLabel('First name')).toBeFocused();
    await expect(form.getByText("Enter the child's first name.")).toHaveCount(0);
    await expect(form.getByText('Enter an age from 0 to 17.')).toHaveCount(0);
    await page.screenshot({ path: `${dir}/${viewport.width}-overview-child-added.png` });
    await page.getByRole('button', { name: 'Continue to payment' }).click();
    await expect(form.getByText("Enter the child's first name.")).toBeVisible();
    await expect(form.getByText('Enter an age from 0 to 17.')).toBeVisible();
    await expect(stepHeading(page)).toHaveText('Check your booking');
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectAccessible(page, 'overview with errors');
    await page.screenshot({ path: `${dir}/${viewport.width}-overview-errors.png`, fullPage: true });

    await form.getByLabel('First name').nth(0).fill('Mia');
    await form.getByLabel('Age').nth(0).selectOption('6');
    await form.getByRole('button', { name: '+ Add a child' }).click();
    await form.getByLabel('First name').nth(1).fill('Leo');
    await form.getByLabel('Age').nth(1).selectOption('3');
    await form.getByRole('button', { name: 'One more adult' }).click();
    await form.getByLabel('Wheelchair access').check();
    // An access need is health information: kept only with the parent's consent, asked beside it.
    await form.getByLabel(/I agree that these access needs may be kept/).check();
    await expect(form.getByText('Pets')).toHaveCount(0);
    // From the top: scrolled, rows pass under the sticky countdown and total, which axe counts as
    // crowding their targets (a moment of scrolling, not the layout).
    await page.evaluate(() => window.scrollTo(0, 0));
    await expectAccessible(page, 'overview filled');
    await page.screenshot({ path: `${dir}/${viewport.width}-overview.png`, fullPage: true });

    const reference = await payFromOverview(page);
    const bookingId = new URL(page.url()).searchParams.get('bookingId')!;
    const successQr = page.getByTestId('check-in-qr');
    await expect(successQr.getByRole('img', { name: `Check-in QR code for booking ${reference}` })).toBeVisible();
    await expect(successQr).toContainText(reference);
    await expectAccessible(page, 'success');
    await page.screenshot({ path: `${dir}/${viewport.width}-success.png`, fullPage: true });

    // The code on screen is the one the API gives the owner.
    const api = await customerClient(page.request, customer.email, customer.password);
    const booked = await api.get<BookingWithDetails>(`/bookings/${bookingId}`);
    expect(booked).toMatchObject({
      reference,
      status: 'completed',
      details: {
        children: [
          { firstName: 'Mia', age: 6 },
          { firstName: 'Leo', age: 3 },
        ],
        adults: 2,
        accessNeeds: ['wheelchair'],
      },
    });
    expect(booked.checkInCode).toMatch(new RegExp(`^${reference}-[A-Z2-7]{16}$`));
    expect(await decodeQr(successQr, `${dir}/${viewport.width}-success-qr.png`)).toBe(booked.checkInCode);

    // My Bookings: the card shows who's coming and, on demand before the day (issue 37 item 7), a QR
    // code large enough to scan at the set (staff-app.spec sees it at once on the day).
    await page.goto('/bookings');
    const card = cardOf(page, reference);
    await expect(card.getByTestId('details-summary')).toContainText('Mia (6), Leo (3)');
    await expect(card.getByTestId('details-summary')).toContainText('Wheelchair access');
    await expect(card.getByTestId('check-in-qr')).toHaveCount(0);
    await card.getByRole('button', { name: 'Show check-in code' }).click();
    const cardQr = card.getByTestId('check-in-qr');
    const box = (await cardQr.locator('svg').boundingBox())!;
    expect(box.width).toBeGreaterThanOrEqual(160);
    expect(await decodeQr(cardQr, `${dir}/${viewport.width}-card-qr.png`)).toBe(booked.checkInCode);
    await expectAccessible(page, 'my bookings');
    await card.screenshot({ path: `${dir}/${viewport.width}-card.png` });

    // Edit a name from the card.
    await card.getByRole('button', { name: "Edit who's coming" }).click();
    const sheet = page.getByRole('dialog', { name: "Who's coming" });
    await expect(sheet.getByLabel('First name').nth(1)).toHaveValue('Leo');
    await sheet.getByLabel('First name').nth(1).fill('Leon');
    // A child added here shows no error before anything is typed either (issue 53 item 5).
    await sheet.getByRole('button', { name: '+ Add a child' }).click();
    await expect(sheet.getByText("Enter the child's first name.")).toHaveCount(0);
    await expect(sheet.getByText('Enter an age from 0 to 17.')).toHaveCount(0);
    await page.screenshot({ path: `${dir}/${viewport.width}-edit-sheet-child-added.png` });
    await sheet.getByRole('button', { name: 'Remove child 3' }).click();
    await expectAccessible(page, 'edit sheet');
    await page.screenshot({ path: `${dir}/${viewport.width}-edit-sheet.png` });
    await sheet.getByRole('button', { name: 'Save' }).click();
    await expect(sheet).toBeHidden();
    await expect(card.getByTestId('details-summary')).toContainText('Mia (6), Leon (3)');
    expect((await api.get<BookingWithDetails>(`/bookings/${bookingId}`)).details?.children[1]?.firstName).toBe('Leon');

    // The confirmation e-mail in the dev mailbox: who's coming (first names) and the code, with the QR inline.
    let mail: { subject: string; text: string; html: string } | undefined;
    await expect
      .poll(async () => {
        const outbox = (await (
          await page.request.get(`/api/v1/dev/outbox?to=${encodeURIComponent(customer.email)}`)
        ).json()) as { items: { subject: string; text: string; html: string }[] };
        mail = outbox.items.find((m) => m.subject.startsWith('Booked:'));
        return mail?.subject;
      })
      .toContain(reference);
    expect(mail!.text).toContain("Who's coming: Mia (6) and Leo (3), 2 adults.");
    expect(mail!.text).toContain('Access needs: Wheelchair access.');
    expect(mail!.text).toContain(`Check-in code: ${booked.checkInCode}.`);
    expect(mail!.html).toContain(`alt="Check-in QR code for ${reference}"`);
  });
}
