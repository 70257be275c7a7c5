import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { refreshTokens } from '../../src/db/schema/accounts';
import { REFRESH_COOKIE } from '../../src/modules/accounts/refresh-cookie';
import { bearer, createSignedInUser, refresh, refreshCookieOf, register, signIn } from '../helpers/accounts';
import { sha256 } from '../../src/modules/accounts/secure-tokens';

const DAY = 24 * 60 * 60 * 1000;

describe('sessions: refresh cookie, rotation, replay, sign-out', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  it('sets an httpOnly, SameSite=Strict refresh cookie on /api/v1/auth, stored only as a hash', async () => {
    await register(t.app, 'cookie@example.com');
    const res = await signIn(t.app, 'cookie@example.com');
    const cookie = res.cookies.find((c) => c.name === REFRESH_COOKIE)!;
    expect(cookie).toMatchObject({
      httpOnly: true,
      sameSite: 'Strict',
      path: '/api/v1/auth',
      maxAge: 30 * 24 * 60 * 60,
    });
    expect(cookie.secure).toBeFalsy(); // inject's host is localhost
    expect(Buffer.from(cookie.value, 'base64url')).toHaveLength(32);
    expect(JSON.stringify(res.json())).not.toContain(cookie.value);
    const rows = await t.db
      .select()
      .from(refreshTokens)
      .where(eq(refreshTokens.tokenHash, sha256(cookie.value)));
    expect(rows).toHaveLength(1);
    const raw = await t.db.select().from(refreshTokens);
    expect(raw.some((r) => r.tokenHash === cookie.value)).toBe(false);
  });

  it('marks the cookie Secure when the request host is not localhost', async () => {
    await register(t.app, 'secure@example.com');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sign-in',
      headers: { host: 'photos.kringle.example' },
      payload: { email: 'secure@example.com', password: 'Sleigh-Bells-Ring-42' },
    });
    expect(res.cookies.find((c) => c.name === REFRESH_COOKIE)?.secure).toBe(true);
  });

  it('rotates the refresh token on every use and gives a fresh ID token', async () => {
    const u = await createSignedInUser(t.app, t.db, 'rotate@example.com');
    t.clock.advance(20 * 60 * 1000);
    const first = await refresh(t.app, u.refreshToken);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({ idToken: expect.any(String), user: { email: 'rotate@example.com' } });
    const next = refreshCookieOf(first);
    expect(next).toBeTruthy();
    expect(next).not.toBe(u.refreshToken);
    const me = await t.app.inject({ url: '/api/v1/user/me', headers: bearer(first.json().idToken) });
    expect(me.statusCode).toBe(200);
    const second = await refresh(t.app, next);
    expect(second.statusCode).toBe(200);
    expect(refreshCookieOf(second)).not.toBe(next);
  });

  it('revokes the whole family when a rotated token is replayed after the reuse grace', async () => {
    const u = await createSignedInUser(t.app, t.db, 'replay@example.com');
    const other = await signIn(t.app, 'replay@example.com'); // a second device: another family
    const rotated = refreshCookieOf(await refresh(t.app, u.refreshToken))!;
    t.clock.advance(21_000); // REFRESH_REUSE_GRACE_SECONDS defaults to 20
    const replay = await refresh(t.app, u.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('UNAUTHENTICATED');
    const cleared = replay.cookies.find((c) => c.name === REFRESH_COOKIE);
    expect(cleared?.value).toBe('');
    // The thief's or the owner's newest token is dead too: the family is revoked.
    expect((await refresh(t.app, rotated)).statusCode).toBe(401);
    // The other device's family is untouched.
    expect((await refresh(t.app, refreshCookieOf(other))).statusCode).toBe(200);
  });

  it('expires a family 30 days after sign-in however often it rotated', async () => {
    const u = await createSignedInUser(t.app, t.db, 'expiry@example.com');
    let token = u.refreshToken;
    for (let day = 0; day < 3; day++) {
      t.clock.advance(10 * DAY - 60_000);
      const res = await refresh(t.app, token);
      expect(res.statusCode).toBe(200);
      token = refreshCookieOf(res)!;
    }
    t.clock.advance(4 * 60_000); // now 30 days and a minute after sign-in
    const late = await refresh(t.app, token);
    expect(late.statusCode).toBe(401);
    expect(late.json().code).toBe('UNAUTHENTICATED');
  });

  it('answers 401 UNAUTHENTICATED without a cookie or with an unknown one', async () => {
    expect((await refresh(t.app, undefined)).json().code).toBe('UNAUTHENTICATED');
    expect((await refresh(t.app, 'made-up-token')).statusCode).toBe(401);
    const withEmptyJson = await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', payload: {} });
    expect(withEmptyJson.statusCode).toBe(401);
  });

  it('signs out: 204, family revoked, cookie cleared; without a cookie still 204', async () => {
    const u = await createSignedInUser(t.app, t.db, 'signout@example.com');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sign-out',
      cookies: { [REFRESH_COOKIE]: u.refreshToken },
    });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    const cleared = res.cookies.find((c) => c.name === REFRESH_COOKIE)!;
    expect(cleared.value).toBe('');
    expect(cleared.path).toBe('/api/v1/auth');
    expect((await refresh(t.app, u.refreshToken)).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/auth/sign-out' })).statusCode).toBe(204);
  });
});
