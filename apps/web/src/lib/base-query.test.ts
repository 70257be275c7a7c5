import type { BaseQueryApi } from '@reduxjs/toolkit/query';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { baseQuery, SESSION_UNAVAILABLE, type AuthSnapshot, type BaseQueryDeps, type RequestArgs } from './base-query';
import { resetServerClock, serverNow } from './server-clock';

const verified = { emailVerified: true };

function json(status: number, body: unknown): Response {
  return new Response(body === undefined ? null : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

function setup(auth: Partial<AuthSnapshot>, responses: (Response | Error)[], overrides: Partial<BaseQueryDeps> = {}) {
  const state: AuthSnapshot = { initialised: true, idToken: 'old-token', user: verified, ...auth };
  const calls: { url: string; init: RequestInit }[] = [];
  const fetchFn = vi.fn(async (url: string | URL | Request, init?: RequestInit) => {
    calls.push({ url: String(url), init: init ?? {} });
    const next = responses.shift();
    if (!next) throw new Error('no more responses');
    if (next instanceof Error) throw next;
    return next;
  });
  const deps: BaseQueryDeps = {
    baseUrl: 'http://test/api/v1',
    fetchFn: fetchFn as unknown as typeof fetch,
    selectAuth: () => state,
    whenAuthReady: vi.fn(async () => {}),
    refreshIdToken: vi.fn(async () => 'new-token'),
    signOut: vi.fn(async () => {}),
    getAppCheckToken: vi.fn(async () => 'app-check-token'),
    invalidateAppCheck: vi.fn(),
    notifyError: vi.fn(),
    ...overrides,
  };
  const api = {
    signal: new AbortController().signal,
    dispatch: vi.fn(),
    getState: () => ({}),
    extra: { baseQuery: deps },
    endpoint: 'test',
    type: 'query',
    abort: vi.fn(),
  } as unknown as BaseQueryApi;
  const run = (args: string | RequestArgs, extraOptions = {}) => baseQuery(args, api, extraOptions);
  const header = (i: number, name: string) => (calls[i]!.init.headers as Record<string, string>)[name];
  return { deps, run, calls, header, fetchFn };
}

describe('baseQuery', () => {
  afterEach(() => resetServerClock());

  it("sets the server clock from each answer's Date header (hold countdowns run on it)", async () => {
    const serverTime = Date.now() + 15 * 60_000;
    const t = setup({}, [
      new Response('{}', {
        status: 200,
        headers: { 'content-type': 'application/json', date: new Date(serverTime).toUTCString() },
      }),
    ]);
    await t.run('/bookings');
    expect(Math.abs(serverNow() - serverTime)).toBeLessThan(1_500);
  });

  it('waits for auth initialisation and sends the ID token and the app-check token', async () => {
    const t = setup({}, [json(200, { items: [] })]);
    const result = await t.run({ url: '/common/locations', params: { a: 1, b: undefined } });
    expect(t.deps.whenAuthReady).toHaveBeenCalled();
    expect(result).toEqual({ data: { items: [] } });
    expect(t.calls[0]!.url).toBe('http://test/api/v1/common/locations?a=1');
    expect(t.header(0, 'Authorization')).toBe('Bearer old-token');
    expect(t.header(0, 'X-App-Check')).toBe('app-check-token');
    expect(t.calls[0]!.init.credentials).toBe('include');
  });

  it("answers 401 'User not authenticated' itself when nobody is signed in", async () => {
    const t = setup({ user: null, idToken: null }, []);
    const result = await t.run('/bookings/upcoming-bookings');
    expect(result.error).toEqual({ status: 401, data: { error: 'User not authenticated', code: 'UNAUTHENTICATED' } });
    expect(t.fetchFn).not.toHaveBeenCalled();
  });

  it("answers 403 'Email not verified' itself for an unverified user, unless the call opts out", async () => {
    const t = setup({ user: { emailVerified: false } }, [json(200, { message: 'sent' })]);
    const refused = await t.run('/common/locations');
    expect(refused.error).toEqual({ status: 403, data: { error: 'Email not verified', code: 'EMAIL_NOT_VERIFIED' } });
    expect(t.fetchFn).not.toHaveBeenCalled();
    const allowed = await t.run(
      { url: '/user/auth/email-verification', method: 'POST', body: { redirectUrl: 'http://x' } },
      { skipVerified: true },
    );
    expect(allowed.data).toEqual({ message: 'sent' });
  });

  it('skipAuth calls go out without a user and without an Authorization header', async () => {
    const t = setup({ user: null, idToken: null }, [json(201, { user: {} })]);
    const result = await t.run({ url: '/user', method: 'POST', body: { email: 'a@b.co' } }, { skipAuth: true });
    expect(result.data).toEqual({ user: {} });
    expect(t.header(0, 'Authorization')).toBeUndefined();
    expect(t.header(0, 'Content-Type')).toBe('application/json');
  });

  it('on a 401 from the server refreshes the ID token once and retries with the new one', async () => {
    const t = setup({}, [json(401, { error: 'expired', code: 'UNAUTHENTICATED' }), json(200, { ok: true })]);
    const result = await t.run('/bookings/upcoming-bookings');
    expect(result.data).toEqual({ ok: true });
    expect(t.deps.refreshIdToken).toHaveBeenCalledTimes(1);
    expect(t.header(1, 'Authorization')).toBe('Bearer new-token');
  });

  it('does not loop when the retry is refused too', async () => {
    const t = setup({}, [
      json(401, { error: 'x', code: 'UNAUTHENTICATED' }),
      json(401, { error: 'still no', code: 'UNAUTHENTICATED' }),
    ]);
    const result = await t.run('/x');
    expect(result.error?.status).toBe(401);
    expect(t.deps.refreshIdToken).toHaveBeenCalledTimes(1);
    expect(t.fetchFn).toHaveBeenCalledTimes(2);
  });

  it('signs out when no token can be had', async () => {
    const t = setup({}, [json(401, { error: 'x', code: 'UNAUTHENTICATED' })], {
      refreshIdToken: vi.fn(async () => null),
    });
    const result = await t.run('/x');
    expect(t.deps.signOut).toHaveBeenCalledTimes(1);
    expect(result.error).toEqual({ status: 401, data: { error: 'User not authenticated', code: 'UNAUTHENTICATED' } });
  });

  it('gets a token first when signed in without one (e.g. offline at boot), and signs out if that fails', async () => {
    const t = setup({ idToken: null }, [], { refreshIdToken: vi.fn(async () => null) });
    const result = await t.run('/x');
    expect(t.fetchFn).not.toHaveBeenCalled();
    expect(t.deps.signOut).toHaveBeenCalled();
    expect(result.error?.status).toBe(401);
  });

  it('keeps the family signed in when the token cannot be renewed just now (offline, 5xx, 429)', async () => {
    const unavailable = vi.fn(async () => Promise.reject(new Error('refresh-unavailable')));
    const stale = setup({ idToken: null }, [], { refreshIdToken: unavailable });
    const before = await stale.run('/x');
    expect(stale.fetchFn).not.toHaveBeenCalled();
    expect(stale.deps.signOut).not.toHaveBeenCalled();
    expect(before.error).toEqual({
      status: 'FETCH_ERROR',
      data: { error: SESSION_UNAVAILABLE, code: 'SESSION_UNAVAILABLE' },
    });

    const expired = setup({}, [json(401, { error: 'expired', code: 'UNAUTHENTICATED' })], {
      refreshIdToken: unavailable,
    });
    const after = await expired.run('/x');
    expect(expired.deps.signOut).not.toHaveBeenCalled();
    expect(after.error?.data.code).toBe('SESSION_UNAVAILABLE');
  });

  it("toasts a 429's error text", async () => {
    const t = setup({}, [json(429, { error: 'Too many attempts. Try again in 60 seconds.', code: 'RATE_LIMITED' })]);
    const result = await t.run('/x');
    expect(result.error?.status).toBe(429);
    expect(t.deps.notifyError).toHaveBeenCalledWith('Too many attempts. Try again in 60 seconds.');
  });

  it('leaves a 429 to the page when the endpoint shows it itself (the Session step, decision 0069)', async () => {
    const t = setup({}, [
      json(429, {
        error: 'Many sessions on this day are on hold from your internet connection right now.',
        code: 'RATE_LIMITED',
      }),
    ]);
    const result = await t.run({ url: '/bookings/reservation', method: 'POST', body: {} }, { showsRateLimit: true });
    expect(result.error?.data.code).toBe('RATE_LIMITED');
    expect(t.deps.notifyError).not.toHaveBeenCalled();
  });

  it('drops a rejected app-check token and retries once with a fresh one', async () => {
    const t = setup({}, [json(401, { error: 'x', code: 'APP_CHECK_INVALID' }), json(200, { ok: 1 })]);
    const result = await t.run('/x');
    expect(result.data).toEqual({ ok: 1 });
    expect(t.deps.invalidateAppCheck).toHaveBeenCalled();
    expect(t.deps.refreshIdToken).not.toHaveBeenCalled();
  });

  it('normalises FETCH_ERROR, PARSING_ERROR and TIMEOUT_ERROR into the API error shape', async () => {
    const t = setup({}, [new TypeError('Failed to fetch'), new Response('<html>', { status: 200 })]);
    expect((await t.run('/x')).error).toMatchObject({ status: 'FETCH_ERROR', data: { code: 'FETCH_ERROR' } });
    expect((await t.run('/x')).error).toMatchObject({ status: 'PARSING_ERROR', data: { code: 'PARSING_ERROR' } });

    const slow = setup({}, [], {
      timeoutMs: 10,
      fetchFn: ((_url: string, init: RequestInit) =>
        new Promise((_resolve, reject) =>
          init.signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        )) as unknown as typeof fetch,
    });
    expect((await slow.run('/x')).error).toMatchObject({ status: 'TIMEOUT_ERROR', data: { code: 'TIMEOUT_ERROR' } });
  });

  it('keeps the server error body and fills one in when there is none', async () => {
    const t = setup({}, [
      json(409, { error: 'That time was just taken.', code: 'SLOT_UNAVAILABLE' }),
      new Response('', { status: 502 }),
    ]);
    expect((await t.run('/x')).error).toEqual({
      status: 409,
      data: { error: 'That time was just taken.', code: 'SLOT_UNAVAILABLE' },
    });
    expect((await t.run('/x')).error).toMatchObject({ status: 502, data: { code: 'HTTP_502' } });
  });

  it('still sends the call when no app-check token can be had (the API decides)', async () => {
    const t = setup({}, [json(200, {})], {
      getAppCheckToken: vi.fn(async () => Promise.reject(new Error('throttled'))),
    });
    await t.run('/x');
    expect(t.header(0, 'X-App-Check')).toBeUndefined();
  });

  it('revalidates a tagged GET with If-None-Match and answers a 304 with the JSON it kept', async () => {
    const tagged = (body: unknown, etag: string) =>
      new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json', etag } });
    const day = { items: [{ id: 's1', status: 'available' }] };
    const t = setup({}, [
      tagged(day, '"v1"'),
      new Response(null, { status: 304, headers: { etag: '"v1"' } }),
      tagged({ items: [] }, '"v2"'),
      json(200, { x: 1 }),
    ]);
    const url = { url: '/booking-slot/loc/available-slots', params: { date: '2026-12-03' } };
    const first = await t.run(url);
    expect(first).toEqual({ data: day });
    expect(t.header(0, 'If-None-Match')).toBeUndefined();
    // Unchanged: no body came back, the kept answer (the same object, so nothing re-renders) is the data.
    const again = await t.run(url);
    expect(t.header(1, 'If-None-Match')).toBe('"v1"');
    expect(again.data).toBe(first.data);
    // Changed: the new answer and its tag replace the old ones.
    expect(await t.run(url)).toEqual({ data: { items: [] } });
    expect(t.header(2, 'If-None-Match')).toBe('"v1"');
    // Another address, or a POST, never carries a tag.
    await t.run({ url: '/booking-slot/loc/available-slots', params: { date: '2026-12-04' } });
    expect(t.header(3, 'If-None-Match')).toBeUndefined();
  });
});
