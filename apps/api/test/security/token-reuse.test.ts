import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  APP_ORIGIN,
  awaitMails,
  bearer,
  createSignedInUser,
  latestLink,
  refresh,
  refreshCookieOf,
  signIn,
  STRONG_PASSWORD,
} from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { expectContractError, stateChecksum } from './security-fixtures';

/**
 * ASVS 3.3 / 2.5: single-use secrets stay single-use. The finer cases (concurrent refreshes,
 * 30-day family expiry, link expiry) live in src/modules/accounts/{sessions,account-actions}.test.ts.
 */
describe('replay of refresh tokens and e-mail links', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const post = (url: string, payload: object) => t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload });

  it(
    'a replayed (already rotated) refresh token revokes its whole family after the reuse grace, including the ' +
      'newest token',
    async () => {
      const u = await createSignedInUser(t.app, t.db, 'replay@example.com', { verified: true });
      const first = await refresh(t.app, u.refreshToken);
      const newest = refreshCookieOf(first)!;
      t.clock.advance(20_001); // past REFRESH_REUSE_GRACE_SECONDS (refresh-reuse.test.ts covers the grace)
      const replay = await refresh(t.app, u.refreshToken);
      expectContractError(replay, 401, 'UNAUTHENTICATED');
      expect(replay.cookies.find((c) => c.name === 'kringle_refresh')?.value).toBe('');
      expectContractError(await refresh(t.app, newest), 401, 'UNAUTHENTICATED');
      // Sign-out with a dead token changes nothing and still answers 204.
      const before = await stateChecksum(t.app);
      const out = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/sign-out',
        cookies: { kringle_refresh: u.refreshToken },
      });
      expect(out.statusCode).toBe(204);
      expect(await stateChecksum(t.app)).toEqual(before);
    },
  );

  it('a reset link works once; a second use, or use as a verify link, is refused and changes nothing', async () => {
    await createSignedInUser(t.app, t.db, 'reset-once@example.com');
    await post('/user/auth/reset-password', { email: 'reset-once@example.com', redirectUrl: APP_ORIGIN });
    await awaitMails(t.db, 'reset-once@example.com');
    const oobCode = (await latestLink(t.db, 'reset-once@example.com')).searchParams.get('oobCode')!;
    expectContractError(await post('/auth/action/verify-email', { oobCode }), 400, 'INVALID_ACTION_CODE');
    expect(
      (await post('/auth/action/reset-password', { oobCode, newPassword: 'Fresh-Snow-On-The-Roof-7' })).statusCode,
    ).toBe(200);
    const before = await stateChecksum(t.app);
    expectContractError(
      await post('/auth/action/reset-password', { oobCode, newPassword: 'Attacker-Chosen-Pass-9' }),
      400,
      'INVALID_ACTION_CODE',
    );
    expectContractError(await post('/auth/action/check', { oobCode }), 400, 'INVALID_ACTION_CODE');
    expect(await stateChecksum(t.app)).toEqual(before);
    expect((await signIn(t.app, 'reset-once@example.com', 'Attacker-Chosen-Pass-9')).statusCode).toBe(401);
    expect((await signIn(t.app, 'reset-once@example.com', 'Fresh-Snow-On-The-Roof-7')).statusCode).toBe(200);
  });

  it('a verify link works once; a second use, or use as a reset link, is refused and changes nothing', async () => {
    const u = await createSignedInUser(t.app, t.db, 'verify-once@example.com');
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/auth/email-verification',
      headers: bearer(u.idToken),
      payload: { redirectUrl: APP_ORIGIN },
    });
    const oobCode = (await latestLink(t.db, 'verify-once@example.com')).searchParams.get('oobCode')!;
    // A verify code must not set a password.
    expectContractError(
      await post('/auth/action/reset-password', { oobCode, newPassword: 'Attacker-Chosen-Pass-9' }),
      400,
      'INVALID_ACTION_CODE',
    );
    expect((await post('/auth/action/verify-email', { oobCode })).statusCode).toBe(200);
    const before = await stateChecksum(t.app);
    expectContractError(await post('/auth/action/verify-email', { oobCode }), 400, 'INVALID_ACTION_CODE');
    expect(await stateChecksum(t.app)).toEqual(before);
    expect((await signIn(t.app, 'verify-once@example.com', STRONG_PASSWORD)).statusCode).toBe(200);
  });
});
