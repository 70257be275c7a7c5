import { execFileSync } from 'node:child_process';
import { createPublicKey, verify } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { SCREENSHOT_DIR, signInThroughApi } from '../helpers/app';
import { bookThroughApi, cardOf, customerClient, downloadFrom } from '../helpers/bookings';
import { expectAccessible } from '../helpers/purchase';
import { loadLocationOpenNow, sessionsLaterToday, signInAsStaff } from '../helpers/staff';
import { createVerifiedCustomer } from '../helpers/wizard';

const DIR = `${SCREENSHOT_DIR}/wallet`;
const VIEWPORTS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;

/** The pass keys the stack generated on the embedded default (decision 0099), in its data folder. */
function devWalletKeys(): { apple: { wwdr: string }; google: { privateKeyPem: string } } {
  const file = path.resolve('..', process.env.E2E_DATA_DIR ?? '.data/e2e', 'wallet-dev-keys.json');
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

/** The .pkpass unpacked by Debian's unzip, and its detached signature checked by openssl (not by our code). */
function opensslVerifies(pkpass: Buffer, caPem: string, tamper = false): { verified: boolean; passJson: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'e2e-pkpass-'));
  try {
    fs.writeFileSync(path.join(dir, 'pass.pkpass'), pkpass);
    execFileSync('unzip', ['-q', 'pass.pkpass', '-d', 'out'], { cwd: dir });
    const manifest = path.join(dir, 'out', 'manifest.json');
    if (tamper) fs.writeFileSync(manifest, fs.readFileSync(manifest, 'utf8').replace('{', '{ '));
    fs.writeFileSync(path.join(dir, 'ca.pem'), caPem);
    const passJson = fs.readFileSync(path.join(dir, 'out', 'pass.json'), 'utf8');
    try {
      execFileSync(
        'openssl',
        ['smime', '-verify', '-binary', '-inform', 'DER', '-in', path.join(dir, 'out', 'signature')].concat([
          '-content',
          manifest,
          '-CAfile',
          path.join(dir, 'ca.pem'),
          '-purpose',
          'any',
        ]),
        { stdio: 'pipe' },
      );
      return { verified: true, passJson };
    } catch {
      return { verified: false, passJson };
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A "Save to Google Wallet" link's JWT: its RS256 signature checked with the issuer's key, and its claims. */
function googleClaims(saveUrl: string, privateKeyPem: string) {
  const jwt = saveUrl.replace('https://pay.google.com/gp/v/save/', '');
  const [header, payload, signature] = jwt.split('.') as [string, string, string];
  const signedOk = verify(
    'RSA-SHA256',
    Buffer.from(`${header}.${payload}`),
    createPublicKey(privateKeyPem),
    Buffer.from(signature, 'base64url'),
  );
  expect(signedOk, 'the save link is signed by the issuer key').toBe(true);
  return JSON.parse(Buffer.from(payload, 'base64url').toString()) as {
    aud: string;
    typ: string;
    payload: { eventTicketObjects: { ticketNumber: string; barcode: { type: string; value: string } }[] };
  };
}

const shot = (page: Page, name: string) =>
  page.screenshot({ path: `${DIR}/${page.viewportSize()!.width}-${name}.png`, fullPage: true });

/** A mobile of this run's own, so the SMS catcher's list for it holds this journey's texts only. */
const freshMobile = () => `0412 ${String(Math.floor(Math.random() * 1e6)).padStart(6, '0')}`;

for (const viewport of VIEWPORTS) {
  /**
   * Issue 54's "done means": a family gives its mobile and asks for text reminders on the profile;
   * its paid booking's card and confirmation page offer both wallets; the pass verifies with
   * openssl and carries the check-in code; the Google link is signed; a delay sent from the staff
   * run sheet reaches the SMS catcher and the mailbox, and the card shows it. Each width has a
   * location of its own, so one run's delay never tells the other's family.
   */
  test(`wallet passes and "Santa is running late" at ${viewport.width} px`, async ({ page, browser, baseURL }) => {
    test.setTimeout(240_000);
    fs.mkdirSync(DIR, { recursive: true });
    // A retry's own location too: the first attempt's family would be told with this one's.
    const attempt = test.info().retry;
    const locationName = `Kringle Wallet Centre ${viewport.width}${attempt ? ` retry ${attempt}` : ''}`;
    loadLocationOpenNow(locationName, `wallet-${viewport.width}-${attempt}`);
    const { location, slots } = await sessionsLaterToday(page.request, locationName, 1);
    const family = await createVerifiedCustomer(page.request, baseURL!, `wallet-${viewport.width}`);
    const api = await customerClient(page.request, family.email, family.password);
    const booking = await bookThroughApi(api, page.request, { slot: slots[0]! });
    const { checkInCode } = await api.get<{ checkInCode: string }>(`/bookings/${booking.id}`);

    // The profile: the mobile, checked as an Australian mobile, and the reminders opt-in.
    await page.setViewportSize(viewport);
    await signInThroughApi(page, family.email, family.password);
    await page.goto('/bookings');
    await expect(page.getByRole('heading', { name: 'My Bookings', level: 1 })).toBeVisible({ timeout: 20_000 });
    if (viewport.width < 800) {
      await page.getByTestId('bottom-tab-bar').getByRole('button', { name: 'Profile' }).click();
      await page.getByRole('menuitem', { name: 'Edit name and phone' }).click();
    } else await page.getByTestId('sidebar').getByRole('button', { name: 'Edit name and phone' }).click();
    const details = page.getByRole('dialog', { name: 'Your details' });
    const mobileField = details.getByLabel('Mobile number (optional)');
    await mobileField.fill('(02) 9876 5432');
    await details.getByRole('button', { name: 'Save details' }).click();
    await expect(details).toContainText('Enter an Australian mobile number, like 0412 345 678');
    const mobile = freshMobile();
    await mobileField.fill(mobile);
    await details.getByRole('checkbox', { name: /Text me a reminder the day before/ }).check();
    await expectAccessible(page, `profile at ${viewport.width}`);
    await shot(page, 'profile-mobile');
    await details.getByRole('button', { name: 'Save details' }).click();
    await expect(details).toHaveCount(0);
    const { user: me } = await api.get<{ user: { phone: string; sms: { reminders: boolean } } }>('/user/me');
    expect(me).toMatchObject({ phone: `+61${mobile.replace(/\s/g, '').slice(1)}`, sms: { reminders: true } });

    // The card offers both wallets, with the check-in code they carry.
    await page.goto('/bookings');
    const card = cardOf(page, booking.reference);
    await card.getByRole('button', { name: 'Show check-in code' }).click({ timeout: 20_000 });
    await expect(card.getByRole('button', { name: 'Add to Apple Wallet' })).toBeVisible();
    await expect(card.getByRole('button', { name: 'Save to Google Wallet' })).toBeVisible();
    await expectAccessible(page, `card with wallets at ${viewport.width}`);
    await shot(page, 'card-wallets');

    const pass = await downloadFrom(page, card.getByRole('button', { name: 'Add to Apple Wallet' }), '/wallet.pkpass');
    expect(pass.response.headers()['content-type']).toBe('application/vnd.apple.pkpass');
    expect(pass.filename).toBe(`santa-photos-${booking.reference}.pkpass`);
    const keys = devWalletKeys();
    const checked = opensslVerifies(pass.bytes, keys.apple.wwdr);
    expect(checked.verified, 'openssl smime -verify accepts the pass').toBe(true);
    expect(opensslVerifies(pass.bytes, keys.apple.wwdr, true).verified, 'a changed manifest fails').toBe(false);
    const passJson = JSON.parse(checked.passJson) as { serialNumber: string; barcodes: { message: string }[] };
    expect(passJson.barcodes[0]!.message).toBe(checkInCode);

    // Google's save page is on the internet: the test answers for it and reads the link the app went to.
    await page.route('https://pay.google.com/**', (route) =>
      route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>Google Wallet</title><h1>Saved</h1>' }),
    );
    await card.getByRole('button', { name: 'Save to Google Wallet' }).click();
    await page.waitForURL(/^https:\/\/pay\.google\.com\/gp\/v\/save\//);
    const claims = googleClaims(page.url(), keys.google.privateKeyPem);
    expect(claims).toMatchObject({ aud: 'google', typ: 'savetowallet' });
    expect(claims.payload.eventTicketObjects[0]).toMatchObject({
      ticketNumber: booking.reference,
      barcode: { type: 'QR_CODE', value: checkInCode },
    });

    // The confirmation page offers them too.
    await page.goto(`/success?bookingId=${booking.id}`);
    await expect(page.getByRole('heading', { name: "You're booked in to see Santa!" })).toBeVisible({
      timeout: 20_000,
    });
    await expect(page.getByRole('button', { name: 'Add to Apple Wallet' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save to Google Wallet' })).toBeVisible();
    await expectAccessible(page, `confirmation at ${viewport.width}`);
    await shot(page, 'confirmation-wallets');

    // The set, on the staff app: "Santa is running late".
    const staffContext = await browser.newContext({ viewport, locale: 'en-AU', timezoneId: 'UTC' });
    const staff = await staffContext.newPage();
    await signInAsStaff(staff);
    await expect(staff.getByRole('heading', { name: /^Run sheet:/ })).toBeVisible({ timeout: 30_000 });
    await staff.getByLabel('Location').selectOption({ label: location.name });
    await expect(staff.getByRole('heading', { name: new RegExp(`^Run sheet: ${location.name}`) })).toBeVisible();
    await staff.getByRole('button', { name: 'Santa is running late' }).click();
    const late = staff.getByRole('form', { name: 'Santa is running late' });
    await late.getByLabel('Running late by').selectOption('20');
    await late.getByLabel(/Note for families/).fill('Santa is feeding the reindeer.');
    await late.getByRole('button', { name: 'Tell families' }).click();
    await expect(late.getByRole('group')).toContainText('running about 20 minutes late?');
    await expectAccessible(staff, `running late confirmation at ${viewport.width}`);
    await shot(staff, 'staff-running-late-confirm');
    await late.getByRole('button', { name: 'Yes, tell them' }).click();
    await expect(late.getByRole('status')).toHaveText('Told 1 family by text and e-mail.');
    await expectAccessible(staff, `running late told at ${viewport.width}`);
    await shot(staff, 'staff-running-late-told');
    await staffContext.close();

    // The SMS catcher has the text, and the mailbox the e-mail.
    const e164 = me.phone;
    let text = '';
    await expect
      .poll(
        async () => {
          const res = await page.request.get(`/api/v1/dev/sms?to=${encodeURIComponent(e164)}`);
          const { items } = (await res.json()) as { items: { body: string }[] };
          text = items.find((m) => m.body.includes('running about 20 min late'))?.body ?? '';
          return text;
        },
        { timeout: 30_000, message: 'the delay text in the SMS catcher' },
      )
      .not.toBe('');
    expect(text).toContain(location.name);
    expect(text).toContain('Santa is feeding the reindeer.');
    await page.goto(`/dev/sms?to=${encodeURIComponent(e164)}`);
    await expect(page.locator('li').filter({ hasText: 'running about 20 min late' })).toBeVisible();
    await shot(page, 'dev-sms');
    await expect
      .poll(
        async () => {
          const res = await page.request.get(`/api/v1/dev/outbox?to=${encodeURIComponent(family.email)}`);
          const { items } = (await res.json()) as { items: { subject: string }[] };
          return items.some((m) => m.subject === `Santa is running about 20 minutes late: ${location.name}`);
        },
        { timeout: 30_000, message: 'the delay e-mail in the mailbox' },
      )
      .toBe(true);

    // The card says it too, with the new expected time.
    await page.goto('/bookings');
    const notice = cardOf(page, booking.reference).getByRole('region', {
      name: `Santa is running late, ${booking.reference}`,
    });
    await expect(notice).toContainText('About 20 minutes behind. Your session should now start around');
    await expect(notice).toContainText('Santa is feeding the reindeer.');
    const expected = await notice.locator('time').getAttribute('datetime');
    expect(Date.parse(expected!)).toBe(Date.parse(booking.slot.startAt) + 20 * 60_000);
    await expectAccessible(page, `card with the delay at ${viewport.width}`);
    await shot(page, 'card-delay');
  });
}
