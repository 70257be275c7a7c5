import type { APIRequestContext, Page } from '@playwright/test';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { demoSeason } from '../../apps/api/src/modules/catalogue/demo-season';
import { solveAppCheck } from '../../apps/api/test/helpers/solve-app-check';

export const BRAND = process.env.VITE_BRAND_NAME || 'Kringle';
export const DEMO_EMAIL = 'demo@kringle.test';
export const DEMO_PASSWORD = 'HoHoHo-2026!';

export interface SignInResult {
  idToken: string;
  expiresAt: string;
  user: { firstName: string; lastName: string; displayName: string; email: string; emailVerified: boolean };
}

/**
 * One token per Playwright worker process (one server per run) while it has 5 minutes left, as the app keeps one per
 * tab.
 */
let cachedAppCheck: { token: string; expiresAt: number } | null = null;

/** Gets an app-check token the way the web app's worker does: solve the ALTCHA challenge, exchange it. */
export async function appCheckToken(request: APIRequestContext): Promise<string | null> {
  if (cachedAppCheck && Date.now() < cachedAppCheck.expiresAt - 5 * 60_000) return cachedAppCheck.token;
  const challengeRes = await request.post('/api/v1/app-check/challenge');
  if (challengeRes.status() === 404) return null;
  const c = (await challengeRes.json()) as {
    algorithm: string;
    challenge: string;
    salt: string;
    signature: string;
    maxnumber: number;
  };
  if (c.algorithm !== 'SHA-256') throw new Error(`unexpected app-check algorithm ${c.algorithm}`);
  const number = solveAppCheck(c.challenge, c.salt, c.maxnumber);
  if (number === null) throw new Error('could not solve the app-check challenge');
  const payload = Buffer.from(
    JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number, salt: c.salt, signature: c.signature }),
  ).toString('base64');
  const exchangeRes = await request.post('/api/v1/app-check/exchange', { data: { payload } });
  if (!exchangeRes.ok())
    throw new Error(`app-check exchange failed: ${exchangeRes.status()} ${await exchangeRes.text()}`);
  const body = (await exchangeRes.json()) as { token: string; expiresAt: string };
  cachedAppCheck = { token: body.token, expiresAt: Date.parse(body.expiresAt) };
  return body.token;
}

/**
 * Signs in through the API (the browser context keeps the httpOnly refresh cookie) and seeds
 * the persisted user the way the app stores it, so the app restores the session on load as
 * it does after a reload. It also hands the tab the app-check token, as a tab that already
 * solved one keeps it in sessionStorage: on a busy host the browser's own solve took 12 s of a
 * 10 s wait (a11y, signed-in layout), a cost these journeys do not test. Journeys that start
 * signed out still solve in the browser. Any failure (a 404 included) fails the test: a broken sign-in must
 * never pass as a skipped test.
 */
export async function signInThroughApi(
  page: Page,
  email = DEMO_EMAIL,
  password = DEMO_PASSWORD,
): Promise<SignInResult> {
  const token = await appCheckToken(page.request);
  const response = await page.request.post('/api/v1/auth/sign-in', {
    data: { email, password },
    headers: token ? { 'X-App-Check': token } : {},
  });
  if (!response.ok()) throw new Error(`sign-in failed: ${response.status()} ${await response.text()}`);
  const session = (await response.json()) as SignInResult;
  await page.addInitScript((user) => {
    // redux-persist stores each slice as its own JSON string.
    if (!window.localStorage.getItem('persist:kringle')) {
      window.localStorage.setItem(
        'persist:kringle',
        JSON.stringify({ auth: JSON.stringify({ user }), _persist: JSON.stringify({ version: 1, rehydrated: true }) }),
      );
    }
  }, session.user);
  if (cachedAppCheck) {
    await page.addInitScript((stored) => {
      // The key and shape apps/web/src/lib/app-check.ts keeps its token under.
      if (!window.sessionStorage.getItem('kringle.appCheck'))
        window.sessionStorage.setItem('kringle.appCheck', JSON.stringify(stored));
    }, cachedAppCheck);
  }
  return session;
}

/** True when the page is wider than the viewport (horizontal scrolling). */
export async function hasHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

export const SCREENSHOT_DIR = '../test-results/screenshots';

/** Loads a season into the stack's database as an operator does (`npm run season:load`). */
export function loadSeason(season: ReturnType<typeof demoSeason>): void {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'kringle-season-')), 'season.json');
  fs.writeFileSync(file, JSON.stringify(season));
  const root = path.resolve(import.meta.dirname, '../..');
  execFileSync('npm', ['run', '--silent', 'season:load', '--', file], {
    cwd: root,
    env: { ...process.env, DATA_DIR: process.env.E2E_DATA_DIR ?? '.data/e2e' },
    stdio: 'pipe',
  });
}
