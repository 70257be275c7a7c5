import { expect, type APIRequestContext, type Page } from '@playwright/test';
import { appCheckToken, DEMO_PASSWORD, signInThroughApi } from './app';

export interface RecordedEvent {
  event: string;
  params: Record<string, unknown>;
}

/** What the app's no-op analytics sink recorded (window.__kringleAnalytics). */
export const recordedEvents = (page: Page): Promise<RecordedEvent[]> =>
  page.evaluate(() => (window as unknown as { __kringleAnalytics?: RecordedEvent[] }).__kringleAnalytics ?? []);

/**
 * A customer has one live hold at a time (another is HOLD_LIMIT, decision 0059), so tests that hold
 * sessions each get their own verified customer instead of sharing the demo account.
 */
export async function createVerifiedCustomer(
  request: APIRequestContext,
  origin: string,
  tag: string,
): Promise<{ email: string; password: string }> {
  const email = `wizard-${tag}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@kringle.test`;
  const password = DEMO_PASSWORD;
  const token = await appCheckToken(request);
  const headers: Record<string, string> = token ? { 'X-App-Check': token } : {};
  const created = await request.post('/api/v1/user', {
    data: { email, password, firstName: 'Holly', lastName: 'Berry' },
    headers,
  });
  expect(created.status(), await created.text()).toBe(201);
  const signIn = await request.post('/api/v1/auth/sign-in', { data: { email, password }, headers });
  const { idToken } = (await signIn.json()) as { idToken: string };
  const sent = await request.post('/api/v1/user/auth/email-verification', {
    data: { redirectUrl: origin },
    headers: { ...headers, Authorization: `Bearer ${idToken}` },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  let oobCode: string | undefined;
  await expect
    .poll(async () => {
      const outbox = (await (await request.get(`/api/v1/dev/outbox?to=${encodeURIComponent(email)}`)).json()) as {
        items: { text: string }[];
      };
      oobCode = outbox.items.map((m) => /oobCode=([\w-]+)/.exec(m.text)?.[1]).find(Boolean);
      return oobCode;
    })
    .toBeTruthy();
  const verified = await request.post('/api/v1/auth/action/verify-email', { data: { oobCode }, headers });
  expect(verified.status(), await verified.text()).toBe(200);
  return { email, password };
}

/** Signs a fresh customer in the way helpers.signInThroughApi does for the demo account. */
export async function signInFreshCustomer(
  page: Page,
  origin: string,
  tag: string,
): Promise<{ email: string; password: string }> {
  const customer = await createVerifiedCustomer(page.request, origin, tag);
  const session = await signInThroughApi(page, customer.email, customer.password);
  expect(session?.user.emailVerified).toBe(true);
  return customer;
}

/** An API client for a second customer (who takes sessions from under the first). */
export async function apiCustomer(request: APIRequestContext, origin: string, tag: string) {
  const { email, password } = await createVerifiedCustomer(request, origin, tag);
  const token = await appCheckToken(request);
  const signIn = await request.post('/api/v1/auth/sign-in', {
    data: { email, password },
    headers: token ? { 'X-App-Check': token } : {},
  });
  const { idToken } = (await signIn.json()) as { idToken: string };
  const headers: Record<string, string> = {
    Authorization: `Bearer ${idToken}`,
    ...(token ? { 'X-App-Check': token } : {}),
  };
  return {
    get: async <T>(path: string): Promise<T> => {
      const res = await request.get(`/api/v1${path}`, { headers });
      expect(res.ok(), await res.text()).toBe(true);
      return (await res.json()) as T;
    },
    post: (path: string, data: unknown) => request.post(`/api/v1${path}`, { headers, data }),
  };
}
