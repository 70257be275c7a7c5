import { describe, expect, it, vi } from 'vitest';
import { AppCheckError, createAppCheckClient } from './app-check';
import { appCheckBackoffMs, LONG_BACKOFF_MS, MAX_BACKOFF_MS } from './app-check-backoff';

describe('appCheckBackoffMs', () => {
  it('waits 24 h after a 403 or 404, whatever came before', () => {
    expect(appCheckBackoffMs(403, 0)).toBe(LONG_BACKOFF_MS);
    expect(appCheckBackoffMs(404, 7)).toBe(24 * 60 * 60 * 1000);
  });

  it('backs off exponentially from 1000 ms, base 2, capped at 16 minutes', () => {
    expect([0, 1, 2, 3, 4].map((n) => appCheckBackoffMs(500, n))).toEqual([1000, 2000, 4000, 8000, 16000]);
    expect(appCheckBackoffMs(429, 9)).toBe(512_000);
    expect(appCheckBackoffMs(429, 10)).toBe(MAX_BACKOFF_MS);
    expect(appCheckBackoffMs(0, 30)).toBe(16 * 60 * 1000);
  });
});

const challenge = { algorithm: 'SHA-256', challenge: 'c', salt: 's', signature: 'sig', maxnumber: 10 };

function client(responses: (() => Response)[], clock = { t: 1_000_000 }) {
  const fetchFn = vi.fn(async () => responses.shift()!());
  const solve = vi.fn(async () => 'payload');
  const onError = vi.fn();
  const c = createAppCheckClient({
    baseUrl: '/api/v1',
    fetchFn: fetchFn as unknown as typeof fetch,
    solve,
    now: () => clock.t,
    onError,
  });
  return { c, fetchFn, solve, onError, clock };
}

const ok = (body: unknown) => () => new Response(JSON.stringify(body), { status: 200 });
const status = (s: number) => () => new Response('{}', { status: s });

describe('app-check client', () => {
  it('solves, exchanges and caches the token until shortly before it expires', async () => {
    const clock = { t: Date.parse('2026-12-01T00:00:00Z') };
    const t = client(
      [
        ok(challenge),
        ok({ token: 'tok-1', expiresAt: '2026-12-01T01:00:00Z' }),
        ok(challenge),
        ok({ token: 'tok-2', expiresAt: '2026-12-01T02:00:00Z' }),
      ],
      clock,
    );
    expect(await t.c.getToken()).toBe('tok-1');
    expect(t.solve).toHaveBeenCalledWith(challenge);
    expect(t.fetchFn).toHaveBeenNthCalledWith(
      2,
      '/api/v1/app-check/exchange',
      expect.objectContaining({ body: JSON.stringify({ payload: 'payload' }) }),
    );
    clock.t += 50 * 60 * 1000;
    expect(await t.c.getToken()).toBe('tok-1');
    clock.t += 6 * 60 * 1000; // within the 5-minute margin
    expect(await t.c.getToken()).toBe('tok-2');
  });

  it('shares one exchange between parallel callers', async () => {
    const t = client([ok(challenge), ok({ token: 'tok', expiresAt: new Date(Date.now() + 3600_000).toISOString() })], {
      t: Date.now(),
    });
    expect(await Promise.all([t.c.getToken(), t.c.getToken()])).toEqual(['tok', 'tok']);
    expect(t.solve).toHaveBeenCalledTimes(1);
  });

  it('a 403 gives initial-throttle with the wait and status, then throttled for 24 h', async () => {
    const t = client([
      ok(challenge),
      status(403),
      ok(challenge),
      ok({ token: 'tok', expiresAt: new Date(1e13).toISOString() }),
    ]);
    const first = await t.c.getToken().catch((e: unknown) => e);
    expect(first).toBeInstanceOf(AppCheckError);
    expect(first).toMatchObject({ kind: 'initial-throttle', waitMs: LONG_BACKOFF_MS, httpStatus: 403 });
    t.clock.t += 60_000;
    const second = await t.c.getToken().catch((e: unknown) => e);
    expect(second).toMatchObject({ kind: 'throttled', waitMs: LONG_BACKOFF_MS - 60_000, httpStatus: 403 });
    expect(t.fetchFn).toHaveBeenCalledTimes(2);
    expect(t.onError).toHaveBeenCalledTimes(2);
    t.clock.t += LONG_BACKOFF_MS;
    expect(await t.c.getToken()).toBe('tok');
  });

  it('other failures back off 1 s, then 2 s', async () => {
    const t = client([
      status(500),
      status(503),
      ok(challenge),
      ok({ token: 'tok', expiresAt: new Date(1e13).toISOString() }),
    ]);
    await expect(t.c.getToken()).rejects.toMatchObject({ kind: 'initial-throttle', waitMs: 1000, httpStatus: 500 });
    t.clock.t += 1000;
    await expect(t.c.getToken()).rejects.toMatchObject({ kind: 'initial-throttle', waitMs: 2000, httpStatus: 503 });
    t.clock.t += 2000;
    expect(await t.c.getToken()).toBe('tok');
  });

  it('a failed solve is a recaptcha-error', async () => {
    const t = client([ok(challenge)]);
    t.solve.mockRejectedValueOnce(new Error('worker crashed'));
    await expect(t.c.getToken()).rejects.toMatchObject({ kind: 'recaptcha-error' });
  });
});

describe('app-check token storage', () => {
  it('reuses a stored token across page loads and forgets it when invalidated', async () => {
    const store = new Map<string, string>();
    const storage = {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    };
    const expiresAt = new Date(Date.now() + 3600_000).toISOString();
    const fetchFn = vi.fn(async (url: string) =>
      url.endsWith('/challenge') ? ok(challenge)() : ok({ token: 'tok', expiresAt })(),
    );
    const first = createAppCheckClient({
      baseUrl: '',
      fetchFn: fetchFn as unknown as typeof fetch,
      solve: async () => 'p',
      storage,
    });
    expect(await first.getToken()).toBe('tok');
    const second = createAppCheckClient({
      baseUrl: '',
      fetchFn: fetchFn as unknown as typeof fetch,
      solve: async () => 'p',
      storage,
    });
    expect(await second.getToken()).toBe('tok');
    expect(fetchFn).toHaveBeenCalledTimes(2);
    second.invalidate();
    expect(store.size).toBe(0);
  });
});
