import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ORIGIN, awaitMails, latestLink, register, STRONG_PASSWORD } from '../helpers/accounts';
import { eq } from 'drizzle-orm';
import { rateLimitCounters } from '../../src/db/schema/platform';
import { ACCOUNT_LIMITS } from '../../src/modules/accounts/account-limits';
import { bucketKey } from '../../src/plugins/rate-limit';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { expectContractError } from './security-fixtures';

/**
 * ASVS 2.2.1: brute force past the limits. The basic per-IP and per-e-mail counting is proven in
 * src/modules/accounts/rate-limits.test.ts and test/platform/platform-rate-limit.test.ts; here: what an
 * attacker would try next (the right password once limited, other spellings of the e-mail,
 * forged X-Forwarded-For) and the limits those files do not cover (reset per IP, e-mail links).
 */
describe('brute force past the rate limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MODE: 'on' });
    await register(t.app, 'victim@example.com');
  });
  afterAll(async () => t.close());

  const signIn = (email: string, password: string, ip: string, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sign-in',
      remoteAddress: ip,
      headers,
      payload: { email, password },
    });

  const expectLimited = (res: Awaited<ReturnType<typeof signIn>>) => {
    expectContractError(res, 429, 'RATE_LIMITED');
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    // The message says when, in the same seconds as the header (or whole minutes/hours of it).
    expect(res.json().error).toMatch(/^Too many attempts\. Try again in \d+ (second|minute|hour)s?\.$/);
    expect(res.headers['set-cookie']).toBeUndefined();
  };

  it(
    'refuses the 11th guess a minute from one address however the e-mail is spelt, and the owner elsewhere still ' +
      'signs in (issue 36)',
    async () => {
      const spellings = ['victim@example.com', 'VICTIM@example.com', ' Victim@Example.COM '];
      for (let i = 0; i < 10; i++) {
        const res = await signIn(spellings[i % 3]!, `Guess-number-${i}`, '10.1.0.1');
        expect(res.statusCode).toBe(401);
      }
      expectLimited(await signIn('victim@example.com', STRONG_PASSWORD, '10.1.0.1'));
      expectLimited(await signIn('Victim@EXAMPLE.com', 'Guess-number-11', '10.1.0.1'));
      // Before: 10 failures from anywhere answered the owner's right password with 429 for a minute, indefinitely.
      expect((await signIn('victim@example.com', STRONG_PASSWORD, '10.1.1.2')).statusCode).toBe(200);
      t.clock.advance(61_000);
      expect((await signIn('victim@example.com', STRONG_PASSWORD, '10.1.0.1')).statusCode).toBe(200);
    },
  );

  /** The per-IP limits are sized for a shared address (decision 0022): start the window at its cap. */
  const useUpWindow = async (name: string, ip: string, count: number) => {
    const updated = await t.db
      .update(rateLimitCounters)
      .set({ count })
      .where(eq(rateLimitCounters.key, bucketKey(name, ip)))
      .returning();
    expect(updated).toHaveLength(1);
  };

  it('counts the socket address, not a forged X-Forwarded-For (TRUST_PROXY is off)', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await signIn(`spray${i}@example.com`, 'Guess-1234', '10.2.0.1', {
        'x-forwarded-for': `198.51.100.${i}`,
      });
      expect(res.statusCode).toBe(401);
    }
    // Every forged address was counted against the socket's one, and none got a counter of its own.
    const [row] = await t.db
      .select()
      .from(rateLimitCounters)
      .where(eq(rateLimitCounters.key, bucketKey('sign-in:ip', '10.2.0.1')));
    expect(row!.count).toBe(5);
    expect(
      await t.db
        .select()
        .from(rateLimitCounters)
        .where(eq(rateLimitCounters.key, bucketKey('sign-in:ip', '198.51.100.1'))),
    ).toHaveLength(0);
    await useUpWindow('sign-in:ip', '10.2.0.1', ACCOUNT_LIMITS['sign-in'].perIp);
    expectLimited(
      await signIn('spray-next@example.com', 'Guess-1234', '10.2.0.1', { 'x-forwarded-for': '198.51.100.200' }),
    );
  });

  it('limits reset requests per IP across e-mails and sends no mail past the limit', async () => {
    const reset = (email: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/user/auth/reset-password',
        remoteAddress: '10.3.0.1',
        payload: { email, redirectUrl: APP_ORIGIN },
      });
    for (let i = 0; i < 5; i++) expect((await reset(`someone${i}@example.com`)).statusCode).toBe(200);
    await useUpWindow('reset-password:ip', '10.3.0.1', ACCOUNT_LIMITS['reset-password'].perIp);
    const limited = await reset('victim@example.com');
    expectLimited(limited);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(59 * 60);
    // Nothing was queued for the victim (the limit answers before the handler).
    expect(await awaitMails(t.db, 'victim@example.com', 0)).toHaveLength(0);
  });

  it(
    'limits guessing of e-mail link codes per IP (30 a minute over check, verify and reset), and a real link still ' +
      'works elsewhere',
    async () => {
      const routes = [
        '/api/v1/auth/action/check',
        '/api/v1/auth/action/verify-email',
        '/api/v1/auth/action/reset-password',
      ];
      const guess = (i: number, ip = '10.4.0.1') =>
        t.app.inject({
          method: 'POST',
          url: routes[i % 3]!,
          remoteAddress: ip,
          payload:
            i % 3 === 2
              ? { oobCode: `guess-${i}`, newPassword: 'Fresh-Snow-On-The-Roof-7' }
              : { oobCode: `guess-${i}` },
        });
      for (let i = 0; i < 30; i++) expectContractError(await guess(i), 400, 'INVALID_ACTION_CODE');
      for (let i = 30; i < 33; i++) expectLimited(await guess(i));

      // The owner of a real link, on another address, is not locked out by the guesser.
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/user/auth/reset-password',
        remoteAddress: '10.4.9.9',
        payload: { email: 'victim@example.com', redirectUrl: APP_ORIGIN },
      });
      await awaitMails(t.db, 'victim@example.com');
      const oobCode = (await latestLink(t.db, 'victim@example.com')).searchParams.get('oobCode')!;
      const check = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/action/check',
        remoteAddress: '10.4.9.9',
        payload: { oobCode },
      });
      expect(check.json()).toMatchObject({ mode: 'resetPassword' });
      // The guesser's window ends like any other.
      t.clock.advance(61_000);
      expectContractError(await guess(99), 400, 'INVALID_ACTION_CODE');
    },
  );
});
