import type { APIRequestContext, Page } from '@playwright/test';
import { solveChallenge } from 'altcha-lib/v1';

export const BRAND = process.env.VITE_BRAND_NAME || 'Kringle';
export const DEMO_EMAIL = 'demo@kringle.test';
export const DEMO_PASSWORD = 'HoHoHo-2026!';

export interface SignInResult {
  idToken: string;
  expiresAt: string;
  user: { firstName: string; lastName: string; displayName: string; email: string; emailVerified: boolean };
}

/** Gets an app-check token the way the web app's worker does: solve the ALTCHA challenge, exchange it. */
export async function appCheckToken(request: APIRequestContext): Promise<string | null> {
  const challengeRes = await request.post('/api/v1/app-check/challenge');
  if (challengeRes.status() === 404) return null;
  const c = (await challengeRes.json()) as { algorithm: string; challenge: string; salt: string; signature: string; maxnumber: number };
  const solution = await solveChallenge(c.challenge, c.salt, c.algorithm, c.maxnumber).promise;
  if (!solution) throw new Error('could not solve the app-check challenge');
  const payload = Buffer.from(JSON.stringify({ algorithm: c.algorithm, challenge: c.challenge, number: solution.number, salt: c.salt, signature: c.signature })).toString('base64');
  const exchangeRes = await request.post('/api/v1/app-check/exchange', { data: { payload } });
  if (!exchangeRes.ok()) throw new Error(`app-check exchange failed: ${exchangeRes.status()} ${await exchangeRes.text()}`);
  return ((await exchangeRes.json()) as { token: string }).token;
}

/**
 * Signs in through the API (the browser context keeps the httpOnly refresh cookie) and seeds
 * the persisted user the way the app stores it, so the app restores the session on load as
 * it does after a reload. Any failure (a 404 included) fails the test: a broken sign-in must
 * never pass as a skipped test.
 */
export async function signInThroughApi(page: Page, email = DEMO_EMAIL, password = DEMO_PASSWORD): Promise<SignInResult> {
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
      window.localStorage.setItem('persist:kringle', JSON.stringify({ auth: JSON.stringify({ user }), _persist: JSON.stringify({ version: 1, rehydrated: true }) }));
    }
  }, session.user);
  return session;
}

/** True when the page is wider than the viewport (horizontal scrolling). */
export async function hasHorizontalScroll(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
}

export const SCREENSHOT_DIR = '../test-results/screenshots';
