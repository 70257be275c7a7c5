import { expect as baseExpect, test, type Page } from '@playwright/test';
import { DEMO_PASSWORD } from '../helpers/app';
import {
  actionLinkFromOutbox,
  expectNoAxeViolations,
  hasHorizontalScroll,
  logInThroughForm,
  NARROW,
  registerThroughForm,
  shot,
  STRONG_PASSWORD,
  uniqueEmail,
  WIDE,
} from '../helpers/accounts';

// Journeys wait on the server (app check, argon2, the mail job): give them room on a busy machine.
const expect = baseExpect.configure({ timeout: 15_000 });
test.beforeEach(() => test.slow());

/** The e2e stack's own address with 127.0.0.1 for localhost: what many people type (issue 53). */
const loopbackUrl = (baseURL: string | undefined, path: string) => {
  const url = new URL(path, baseURL);
  url.hostname = '127.0.0.1';
  return url.toString();
};

/**
 * Issue 53 item 3: what can be booked, after the form: below it on a phone (the form is the first
 * screen, nothing pushed in before it), beside it on a wide screen.
 */
async function expectCatalogueAfterForm(
  page: Page,
  submit: string,
  label: string,
  { submitOnFirstScreen }: { submitOnFirstScreen: boolean },
) {
  const catalogue = page.getByRole('region', { name: 'Santa photos this season' });
  await expect(catalogue).toBeVisible();
  await expect(catalogue.getByText('Kringle Sydney, Pitt Street')).toBeVisible();
  await expect(catalogue.getByText(/^from \$\d+\.\d{2}$/).first()).toBeVisible();
  await expect(catalogue.getByText(/^Santa photos ·/).first()).toBeVisible();
  const viewport = page.viewportSize()!;
  const email = (await page.getByLabel('Email address').boundingBox())!;
  expect(email.y + email.height, `${label}: the form starts on the first screen`).toBeLessThanOrEqual(viewport.height);
  const button = (await page.getByRole('button', { name: submit }).boundingBox())!;
  if (submitOnFirstScreen)
    expect(button.y + button.height, `${label}: ${submit} on the first screen`).toBeLessThanOrEqual(viewport.height);
  const box = (await catalogue.boundingBox())!;
  if (viewport.width >= 1024) expect(box.x, `${label}: beside the form`).toBeGreaterThan(email.x + email.width);
  else expect(box.y, `${label}: below the form`).toBeGreaterThan(button.y + button.height);
  expect(await hasHorizontalScroll(page)).toBe(false);
  await expectNoAxeViolations(page, label);
}

for (const [name, viewport] of [
  ['wide', WIDE],
  ['narrow', NARROW],
] as const) {
  test(`a visitor sees what can be booked on /login and /register, after the form (${name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const answers: {
      status: number;
      cacheControl: string | undefined;
      etag: string | undefined;
      appCheck: string | undefined;
    }[] = [];
    page.on('response', (response) => {
      if (response.url().endsWith('/api/v1/common/catalogue'))
        answers.push({
          status: response.status(),
          cacheControl: response.headers()['cache-control'],
          etag: response.headers().etag,
          appCheck: response.request().headers()['x-app-check'],
        });
    });
    await page.goto('/login');
    await expect(page.getByRole('heading', { name: 'Log in' })).toBeVisible();
    await expectCatalogueAfterForm(page, 'Log in', `/login catalogue (${name})`, { submitOnFirstScreen: true });
    await shot(page, 'login-catalogue');
    // Without a token or an app check, cacheable.
    expect(answers[0]).toMatchObject({
      status: 200,
      cacheControl: 'public, max-age=60',
      etag: expect.stringMatching(/^"catalogue-/),
      appCheck: undefined,
    });

    await page.getByRole('link', { name: 'Create an account' }).click();
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    // The register form is longer than the first screen at 390 and 1280 px with or without the catalogue (which comes
    // after it).
    await expectCatalogueAfterForm(page, 'Create account', `/register catalogue (${name})`, {
      submitOnFirstScreen: false,
    });
    await shot(page, 'register-catalogue');
    // The spec's redirects are unchanged: / to /register, /packages to /login, each showing the catalogue.
    for (const [path, to] of [
      ['/', /\/register$/],
      ['/packages', /\/login$/],
    ] as const) {
      await page.goto(path);
      await expect(page).toHaveURL(to);
      await expect(page.getByRole('region', { name: 'Santa photos this season' })).toBeVisible();
    }
  });
}

test(
  'registers at http://127.0.0.1, and the verification mail arrives with a link to that address (issue 53 item ' + '1)',
  async ({ page, baseURL }) => {
    await page.setViewportSize(NARROW);
    const email = uniqueEmail('loopback');
    await page.goto(loopbackUrl(baseURL, '/register'));
    await expect(page.getByRole('heading', { name: 'Create your account' })).toBeVisible();
    const sent = page.waitForResponse((r) => r.url().endsWith('/api/v1/user/auth/email-verification'));
    await registerThroughForm(page, { email, password: STRONG_PASSWORD });
    // Allowed now: 200, where it was 400 REDIRECT_NOT_ALLOWED.
    expect((await sent).status()).toBe(200);
    await expect(page.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
    await expect(page.getByText(/We've sent a verification link to/)).toContainText(email);
    await expect(page.getByRole('alert')).toHaveCount(0);
    await shot(page, 'loopback-verify-screen');

    const { link } = await actionLinkFromOutbox(page.request, email, /Verify your email/);
    expect(new URL(link).origin).toBe(new URL(loopbackUrl(baseURL, '/')).origin);
    await page.goto(link);
    await expect(page.getByRole('heading', { name: 'Your email address is verified' })).toBeVisible();
  },
);

test('the unverified demo account: no claim that a link went, until Resend sends one (issue 53 item 1)', async ({
  page,
}) => {
  await page.setViewportSize(NARROW);
  await page.goto('/login');
  await logInThroughForm(page, 'new@kringle.test', DEMO_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
  // Seeded, never mailed: the screen says so instead of "We've sent a verification link".
  await expect(page.getByText(/To use your account, confirm/)).toContainText('new@kringle.test');
  await expect(page.getByText(/No email from us yet\? Press .Resend Email. below\./)).toBeVisible();
  await expect(page.getByText(/We've sent a verification link/)).toHaveCount(0);
  await expectNoAxeViolations(page, 'verify screen, demo account');
  await shot(page, 'demo-unverified-verify-screen');

  const before = (await (await page.request.get('/api/v1/dev/outbox?to=new%40kringle.test')).json()) as {
    items: { id: string }[];
  };
  await page.getByRole('button', { name: 'Resend Email' }).click();
  await expect(page.getByText(/We've sent a new verification link to new@kringle\.test/)).toBeVisible();
  await expect(page.getByText(/We've sent a verification link to/)).toContainText('new@kringle.test');
  const { link } = await actionLinkFromOutbox(page.request, 'new@kringle.test', /Verify your email/, {
    notId: before.items[0]?.id,
  });
  expect(link).toContain('/verify?mode=verifyEmail');
  await shot(page, 'demo-unverified-resent');
});

test(
  'a refused send is said on screen, never "we\'ve sent": registration\'s verification mail, and the reset link ' +
    '(issue 53 item 1)',
  async ({ page }) => {
    await page.setViewportSize(NARROW);
    const refused = {
      status: 400,
      contentType: 'application/json',
      body: JSON.stringify({
        error: 'That link points somewhere we do not send people.',
        code: 'REDIRECT_NOT_ALLOWED',
      }),
    };
    // As the API answered at 127.0.0.1 before this fix.
    await page.route('**/api/v1/user/auth/email-verification', (route) => route.fulfill(refused));
    await page.goto('/register');
    await registerThroughForm(page, { email: uniqueEmail('refused'), password: STRONG_PASSWORD });
    await expect(page.getByRole('heading', { name: 'Verify your email address' })).toBeVisible();
    await expect(page.getByRole('alert')).toContainText('We could not send the verification email');
    await expect(page.getByRole('alert')).toContainText('That link points somewhere we do not send people.');
    await expect(page.getByText(/We've sent a verification link/)).toHaveCount(0);
    await expectNoAxeViolations(page, 'verify screen, send refused');
    await shot(page, 'verify-send-refused');

    await page.getByRole('link', { name: 'Back to login' }).click();
    await page.route('**/api/v1/user/auth/reset-password', (route) => route.fulfill(refused));
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    await page.getByLabel('Email address').fill('holly@example.com');
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await expect(page.getByRole('alert')).toContainText('That link points somewhere we do not send people.');
    await expect(page.getByRole('heading', { name: 'Check your email' })).toHaveCount(0);
  },
);
