import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { expect, type Page } from '@playwright/test';
import { Secret, TOTP } from 'otpauth';
import { appCheckToken } from './app';

export const STAFF_PASSWORD = 'Desk-Support-2026!';

/**
 * A staff member of its own (a retry or the other width must not meet a second factor enrolled
 * before): made with the operators' CLI, as a real deployment makes its first accounts, and the
 * invitation accepted.
 */
export async function newStaffMember(page: Page, role: 'support' | 'manager', tag: string): Promise<string> {
  const email = `${role}-${tag}-${Math.random().toString(36).slice(2, 8)}@kringle.test`;
  const root = path.resolve(import.meta.dirname, '../..');
  const out = execFileSync('npm', ['run', '--silent', 'staff:add', '--', '--email', email, '--role', role], {
    cwd: root,
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? '.data/e2e' },
    encoding: 'utf8',
  });
  const code = new URL(out.match(/https?:\/\/\S+/)![0]).searchParams.get('code')!;
  const token = await appCheckToken(page.request);
  const accepted = await page.request.post('/api/v1/staff/invitations/accept', {
    data: { code, password: STAFF_PASSWORD },
    headers: token ? { 'X-App-Check': token } : {},
  });
  expect(accepted.status(), await accepted.text()).toBe(200);
  return email;
}

/**
 * Support and managers must enrol a second step before anything else (decision 0050): the code from the secret shown.
 */
export async function signInAndEnrol(page: Page, email: string) {
  await page.goto('/staff');
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(STAFF_PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('heading', { name: 'Set up your sign-in code' })).toBeVisible({ timeout: 30_000 });
  const secret = (await page.locator('code').textContent())!.trim();
  await page
    .getByLabel('Code from the app')
    .fill(new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate());
  await page.getByRole('button', { name: 'Turn on the second step' }).click();
  await page.getByLabel('I have saved them').check();
  await page.getByRole('button', { name: 'Continue to the staff app' }).click();
}
