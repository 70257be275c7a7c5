import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { refreshTokens } from '../../src/db/schema/accounts';
import { REFRESH_COOKIE } from '../../src/modules/accounts/refresh-cookie';
import { createSignedInUser, refresh, refreshCookieOf } from '../helpers/accounts';
import { openSuccessor } from '../../src/modules/accounts/successor-seal';

/** API.md "Additions" → "Sessions": the reuse grace of REFRESH_REUSE_GRACE_SECONDS (decision 0005). */
describe('sessions: the refresh reuse grace', () => {
  let t: TestApp;
  let off: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ REFRESH_REUSE_GRACE_SECONDS: '5' });
    off = await createTestApp({ REFRESH_REUSE_GRACE_SECONDS: '0' });
  });
  afterAll(async () => {
    await t.close();
    await off.close();
  });

  const reuseWarnings = (app: TestApp) => {
    const warn = vi.spyOn(app.app.log, 'warn');
    warn.mockClear(); // one spy per logger: count this test's calls only
    return () => warn.mock.calls.filter(([obj]) => (obj as { event?: string }).event === 'auth.refresh_token_reuse');
  };

  it("answers a retried refresh whose answer was lost with the family's current token", async () => {
    const u = await createSignedInUser(t.app, t.db, 'lost@example.com');
    const lost = await refresh(t.app, u.refreshToken); // the answer never reaches the browser
    const current = refreshCookieOf(lost)!;
    t.clock.advance(4_000);
    const retry = await refresh(t.app, u.refreshToken);
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toMatchObject({
      idToken: expect.any(String),
      expiresAt: expect.any(String),
      user: { email: 'lost@example.com' },
    });
    const cookie = retry.cookies.find((c) => c.name === REFRESH_COOKIE)!;
    expect(cookie.value).toBe(current);
    expect(cookie).toMatchObject({ httpOnly: true, path: '/api/v1/auth' });
    // The current token still rotates normally, and the chain goes on.
    const next = await refresh(t.app, current);
    expect(next.statusCode).toBe(200);
    expect(refreshCookieOf(next)).not.toBe(current);
  });

  it('lets simultaneous refreshes with one token all succeed on one current token', async () => {
    const u = await createSignedInUser(t.app, t.db, 'tabs@example.com');
    const results = await Promise.all([1, 2, 3].map(() => refresh(t.app, u.refreshToken)));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    const cookies = new Set(results.map((r) => refreshCookieOf(r)));
    expect(cookies.size).toBe(1);
    expect(cookies.has(u.refreshToken)).toBe(false);
    expect((await refresh(t.app, [...cookies][0])).statusCode).toBe(200);
  });

  it('treats a grandparent sent within the grace as theft: 401, family revoked, security event logged', async () => {
    const warnings = reuseWarnings(t);
    const u = await createSignedInUser(t.app, t.db, 'grandparent@example.com');
    const parent = refreshCookieOf(await refresh(t.app, u.refreshToken))!;
    const current = refreshCookieOf(await refresh(t.app, parent))!;
    const replay = await refresh(t.app, u.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('UNAUTHENTICATED');
    expect(refreshCookieOf(replay)).toBe('');
    expect((await refresh(t.app, current)).statusCode).toBe(401);
    expect((await refresh(t.app, parent)).statusCode).toBe(401);
    expect(warnings()).toEqual([
      [
        expect.objectContaining({ reason: 'not_the_predecessor', userId: u.id }),
        'refresh token reuse detected: family revoked',
      ],
    ]);
    const rows = await t.db.select().from(refreshTokens);
    const family = rows.filter((r) => r.userId === u.id);
    expect(family.length).toBe(3);
    expect(family.every((r) => r.revokedAt)).toBe(true);
  });

  it('treats the predecessor sent after the grace as theft', async () => {
    const warnings = reuseWarnings(t);
    const u = await createSignedInUser(t.app, t.db, 'late@example.com');
    const current = refreshCookieOf(await refresh(t.app, u.refreshToken))!;
    t.clock.advance(5_001);
    expect((await refresh(t.app, u.refreshToken)).statusCode).toBe(401);
    expect((await refresh(t.app, current)).statusCode).toBe(401);
    expect(warnings()).toEqual([
      [expect.objectContaining({ reason: 'after_grace', userId: u.id }), expect.any(String)],
    ]);
  });

  it('does not let a predecessor back in after sign-out', async () => {
    const u = await createSignedInUser(t.app, t.db, 'signout-grace@example.com');
    const current = refreshCookieOf(await refresh(t.app, u.refreshToken))!;
    const out = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sign-out',
      cookies: { [REFRESH_COOKIE]: current },
    });
    expect(out.statusCode).toBe(204);
    expect((await refresh(t.app, u.refreshToken)).statusCode).toBe(401);
    expect((await refresh(t.app, current)).statusCode).toBe(401);
  });

  it('stores the successor sealed: only the rotated token, in its own family, opens it', async () => {
    const u = await createSignedInUser(t.app, t.db, 'sealed@example.com');
    const other = await createSignedInUser(t.app, t.db, 'sealed-other@example.com');
    const current = refreshCookieOf(await refresh(t.app, u.refreshToken))!;
    const rows = await t.db.select().from(refreshTokens);
    const rotated = rows.find((r) => r.userId === u.id && r.rotatedAt)!;
    const sealed = rotated.successorSealed!;
    expect(sealed).not.toContain(current);
    expect(openSuccessor(u.refreshToken, rotated.familyId, sealed)).toBe(current);
    expect(openSuccessor(other.refreshToken, rotated.familyId, sealed)).toBeNull();
    expect(openSuccessor(u.refreshToken, rows.find((r) => r.userId === other.id)!.familyId, sealed)).toBeNull();
    expect(openSuccessor(u.refreshToken, rotated.familyId, sealed.slice(0, -4))).toBeNull();
  });

  it(
    'with grace 0 keeps the strict rotation: of two simultaneous refreshes one wins and the family is ' + 'revoked',
    async () => {
      const warnings = reuseWarnings(off);
      const u = await createSignedInUser(off.app, off.db, 'strict@example.com');
      const results = await Promise.all([refresh(off.app, u.refreshToken), refresh(off.app, u.refreshToken)]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
      const winner = refreshCookieOf(results.find((r) => r.statusCode === 200)!)!;
      expect((await refresh(off.app, winner)).statusCode).toBe(401);
      expect(warnings()).toEqual([[expect.objectContaining({ reason: 'grace_off' }), expect.any(String)]]);
    },
  );
});
