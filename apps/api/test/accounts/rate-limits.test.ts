import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitCounters } from '../../src/db/schema/platform';
import { bucketKey } from '../../src/plugins/rate-limit';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { ACCOUNT_LIMITS, APP_CHECK_LIMITS, SESSION_LIMITS } from '../../src/modules/accounts/account-limits';
import { REFRESH_COOKIE } from '../../src/modules/accounts/refresh-cookie';
import { APP_ORIGIN, createSignedInUser, refreshCookieOf, STRONG_PASSWORD } from '../helpers/accounts';

describe(
  'accounts rate limits (API.md: per e-mail sign-in 10/min, register 5/h, reset 3/h; per IP sized for shared ' +
    'addresses)',
  () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({ RATE_LIMIT_MODE: 'on' });
    });
    afterAll(async () => t.close());

    const signIn = (email: string, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/sign-in',
        remoteAddress: ip,
        payload: { email, password: 'Wrong-Password-1' },
      });

    it(
      'limits sign-in per e-mail and address, with Retry-After, and the window ends; other addresses are not locked ' +
        'out',
      async () => {
        for (let i = 0; i < 10; i++) expect((await signIn('target@example.com', '10.0.0.1')).statusCode).toBe(401);
        expect((await signIn('target@example.com', '10.0.1.2')).statusCode).toBe(401);
        const limited = await signIn('target@example.com', '10.0.0.1');
        expect(limited.statusCode).toBe(429);
        expect(limited.json()).toMatchObject({
          code: 'RATE_LIMITED',
          error: expect.stringMatching(/Try again in \d+ seconds?/),
        });
        expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
        expect((await signIn('someone-else@example.com', '10.0.1.1')).statusCode).toBe(401);
        t.clock.advance(61 * 1000);
        expect((await signIn('target@example.com', '10.0.0.1')).statusCode).toBe(401);
      },
    );

    /** Starts the IP's current window just below its cap, as if that many families had come before. */
    const fillWindow = async (name: string, ip: string, count: number, windowMs: number) => {
      await t.db
        .insert(rateLimitCounters)
        .values({ key: bucketKey(name, ip), count, resetAt: new Date(t.clock.now().getTime() + windowMs) });
    };

    it('lets many families sign in behind one address, then limits that address', async () => {
      for (let i = 0; i < 30; i++) expect((await signIn(`user${i}@example.com`, '10.9.9.9')).statusCode).toBe(401);
      await fillWindow('sign-in:ip', '10.9.9.8', ACCOUNT_LIMITS['sign-in'].perIp, 60_000);
      const limited = await signIn('fresh@example.com', '10.9.9.8');
      expect(limited.statusCode).toBe(429);
      expect(limited.headers['retry-after']).toBeTruthy();
    });

    const reg = (email: string, ip: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/user',
        remoteAddress: ip,
        payload: { email, password: STRONG_PASSWORD, firstName: 'A', lastName: 'B' },
      });

    it('registers far more than 5 families an hour from one shared address, up to 300', async () => {
      expect(ACCOUNT_LIMITS.register.perIp).toBe(300);
      // A shopping centre's Wi-Fi: the old limit (5 an hour) refused the sixth family.
      for (let i = 0; i < 12; i++) expect((await reg(`reg${i}@example.com`, '10.7.7.7')).statusCode).toBe(201);
      await fillWindow('register:ip', '10.7.7.6', ACCOUNT_LIMITS.register.perIp - 1, 3_600_000);
      expect((await reg('last-one@example.com', '10.7.7.6')).statusCode).toBe(201);
      const limited = await reg('one-too-many@example.com', '10.7.7.6');
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({
        code: 'RATE_LIMITED',
        error: expect.stringMatching(/Try again in \d+ minutes?/),
      });
      expect(limited.headers['retry-after']).toBeTruthy();
    });

    it('keeps registration strict per e-mail: 5 an hour, whatever the address', async () => {
      const codes = [];
      for (let i = 0; i < 5; i++) codes.push((await reg('same@example.com', `10.8.0.${i + 1}`)).statusCode);
      expect(codes[0]).toBe(201);
      expect(codes.slice(1).every((c) => c === 409)).toBe(true);
      expect((await reg('same@example.com', '10.8.1.1')).statusCode).toBe(429);
    });

    it('raises the app-check exchange per IP (20 a minute before)', async () => {
      expect(APP_CHECK_LIMITS.exchange.perIp).toBeGreaterThanOrEqual(300);
      await fillWindow('app-check-exchange:ip', '10.6.6.6', APP_CHECK_LIMITS.exchange.perIp, 60_000);
      const limited = await t.app.inject({
        method: 'POST',
        url: '/api/v1/app-check/exchange',
        remoteAddress: '10.6.6.6',
        payload: { payload: 'YWJj' },
      });
      expect(limited.statusCode).toBe(429);
      const other = await t.app.inject({
        method: 'POST',
        url: '/api/v1/app-check/exchange',
        remoteAddress: '10.6.6.5',
        payload: { payload: 'YWJj' },
      });
      expect(other.statusCode).toBe(403);
    });

    it('limits the refresh cookie per IP, and a refused refresh leaves the cookie as it was', async () => {
      const u = await createSignedInUser(t.app, t.db, 'refresh-limit@example.com', { verified: true });
      const refreshFrom = (ip: string, token: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/auth/refresh',
          remoteAddress: ip,
          cookies: { [REFRESH_COOKIE]: token },
        });
      await fillWindow('refresh:ip', '10.4.4.4', SESSION_LIMITS.refresh.perIp - 1, 60_000);
      const last = await refreshFrom('10.4.4.4', u.refreshToken);
      expect(last.statusCode).toBe(200);
      const current = refreshCookieOf(last)!;
      const limited = await refreshFrom('10.4.4.4', current);
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toMatchObject({
        code: 'RATE_LIMITED',
        error: expect.stringMatching(/Try again in \d+ seconds?/),
      });
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // Neither rotated nor cleared: the family is still signed in, and the same cookie works elsewhere or later.
      expect(limited.headers['set-cookie']).toBeUndefined();
      expect((await refreshFrom('10.4.4.5', current)).statusCode).toBe(200);
      // Replayed unknown cookies count too, so a loop of them stops at the limit.
      await fillWindow('refresh:ip', '10.4.4.6', SESSION_LIMITS.refresh.perIp, 60_000);
      expect((await refreshFrom('10.4.4.6', 'not-a-real-token')).statusCode).toBe(429);
    });

    it('limits reset requests to 3 an hour per e-mail, whether or not the account exists', async () => {
      const reset = (ip: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/user/auth/reset-password',
          remoteAddress: ip,
          payload: { email: 'nobody@example.com', redirectUrl: APP_ORIGIN },
        });
      for (let i = 0; i < 3; i++) expect((await reset(`10.5.5.${i + 1}`)).statusCode).toBe(200);
      expect((await reset('10.5.6.1')).statusCode).toBe(429);
    });
  },
);
