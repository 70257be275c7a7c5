import { request, type Browser } from '@playwright/test';
import { bookThroughApi, customerClient } from '../../e2e/helpers/bookings';
import { logInThroughForm } from '../../e2e/helpers/accounts';
import { createVerifiedCustomer } from '../../e2e/helpers/wizard';

/** A verified customer of the budgets stack, as a family that has booked before. */
export interface Family {
  email: string;
  password: string;
  /** Booking references on each tab of /bookings. */
  upcoming: string[];
  past: string[];
}

/**
 * Issue 21: the signed-in pages are audited with data, made through the app's own paths as the
 * end-to-end journeys make it (their helpers: register, verify by the e-mailed link, hold, cart,
 * checkout, pay on the Stripe sandbox, confirmed by its webhook). The season is the demo season
 * the embedded stack loads at start. Three paid upcoming bookings, and one paid and cancelled
 * with its refund, which is what the Past tab lists before any session has taken place.
 */
export async function seedFamily(baseUrl: string): Promise<Family> {
  const api = await request.newContext({ baseURL: baseUrl });
  try {
    const { email, password } = await createVerifiedCustomer(api, baseUrl, 'budgets');
    const client = await customerClient(api, email, password);
    const upcoming: string[] = [];
    for (const daysAhead of [3, 8, 15]) upcoming.push((await bookThroughApi(client, api, { daysAhead })).reference);
    const cancelled = await bookThroughApi(client, api, { daysAhead: 20 });
    await client.post(`/bookings/${cancelled.id}/cancel`, {});
    return { email, password, upcoming, past: [cancelled.reference] };
  } finally {
    await api.dispose();
  }
}

/**
 * Signs the browser's default context in as the family does, through the login form (the browser
 * solves the app check itself), and waits for their bookings. Lighthouse opens its tabs in that
 * context: each page load then restores the session as a returning family's does, refreshing
 * the ID token with the refresh cookie (rotated in the same cookie jar at every load).
 */
export async function signInBrowser(browser: Browser, baseUrl: string, family: Family): Promise<void> {
  const context = browser.contexts()[0];
  if (!context) throw new Error('the browser has no default context');
  const page = await context.newPage();
  try {
    await page.goto(`${baseUrl}/login`);
    await logInThroughForm(page, family.email, family.password);
    await page.waitForURL((url) => url.pathname !== '/login', { timeout: 60_000 });
    await page.goto(`${baseUrl}/bookings`);
    await page.locator(`[data-reference="${family.upcoming[0]}"]`).waitFor({ timeout: 60_000 });
  } finally {
    await page.close();
  }
}
