import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rateLimitCounters } from '../../src/db/schema/platform';
import { REGISTER_PRICING, SIGN_IN_PRICING, VERIFY_MAIL_LIMITS } from '../../src/modules/accounts/account-limits';
import { bucketKey } from '../../src/plugins/rate-limit';
import { APP_ORIGIN, bearer, STRONG_PASSWORD } from '../helpers/accounts';
import { appCheckToken } from '../helpers/app-check';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * Issue 36, probe cases 3 to 5: a family locked out from anywhere, one proof for any number of guesses or accounts,
 * e-mail bombing.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RATE_LIMIT_MODE: 'on', APP_CHECK_MODE: 'enforce' });
  const proof = await appCheckToken(t.app);
  expect(
    (
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/user',
        remoteAddress: '10.9.0.1',
        headers: { 'x-app-check': proof },
        payload: { email: 'owner@example.com', password: STRONG_PASSWORD, firstName: 'A', lastName: 'B' },
      })
    ).statusCode,
  ).toBe(201);
});
afterAll(async () => t.close());

const signIn = (email: string, password: string, ip: string, proof: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/v1/auth/sign-in',
    remoteAddress: ip,
    headers: { 'x-app-check': proof },
    payload: { email, password },
  });

describe('sign-in guessing cannot lock the owner out', () => {
  it('a proof pays for 5 sign-in attempts, then 401 APP_CHECK_INVALID (the web app solves a new one)', async () => {
    const proof = await appCheckToken(t.app);
    for (let i = 0; i < SIGN_IN_PRICING.perProof; i++)
      expect((await signIn(`nobody${i}@example.com`, 'Guess-1234', '10.1.0.1', proof)).statusCode).toBe(401);
    const spent = await signIn('nobody-next@example.com', 'Guess-1234', '10.1.0.1', proof);
    expect(spent.statusCode).toBe(401);
    expect(spent.json()).toMatchObject({ code: 'APP_CHECK_INVALID' });
  });

  it(
    'guesses from many addresses put the e-mail under pressure: every attempt then needs a fresh proof, and the ' +
      "owner's right password still works",
    async () => {
      for (let i = 0; i < 12; i++) {
        const res = await signIn(
          'owner@example.com',
          `Guess-number-${i}`,
          `10.2.0.${i + 1}`,
          await appCheckToken(t.app),
        );
        expect(res.statusCode).toBe(401);
        expect(res.json()).toMatchObject({ code: 'INVALID_CREDENTIALS' });
      }
      // A proof already spent on this e-mail: asked for a fresh one, not refused for a minute.
      const used = await appCheckToken(t.app);
      expect((await signIn('owner@example.com', 'Guess-again-1', '10.2.1.1', used)).statusCode).toBe(401);
      expect((await signIn('owner@example.com', STRONG_PASSWORD, '10.3.0.1', used)).json()).toMatchObject({
        code: 'APP_CHECK_INVALID',
      });
      // Before: 429 RATE_LIMITED for the owner, from anywhere.
      const owner = await signIn('owner@example.com', STRONG_PASSWORD, '10.3.0.1', await appCheckToken(t.app));
      expect(owner.statusCode).toBe(200);
    },
    30_000,
  );

  it('past the ceiling per e-mail alone (1,000 an hour) it is a flat 429', async () => {
    await t.db.insert(rateLimitCounters).values({
      key: bucketKey('sign-in:email', 'ceiling@example.com'),
      count: SIGN_IN_PRICING.ceiling.perEmail,
      resetAt: new Date(t.clock.now().getTime() + 3_600_000),
    });
    const res = await signIn('ceiling@example.com', STRONG_PASSWORD, '10.4.0.1', await appCheckToken(t.app));
    expect(res.statusCode).toBe(429);
    expect(res.json()).toMatchObject({ code: 'RATE_LIMITED' });
  });
});

describe('registrations and verification mail per proof, address and day', () => {
  const reg = (email: string, ip: string, proof: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/user',
      remoteAddress: ip,
      headers: { 'x-app-check': proof },
      payload: { email, password: STRONG_PASSWORD, firstName: 'A', lastName: 'B' },
    });

  it('a proof pays for 3 registrations, and one address gets 30 a minute', async () => {
    const proof = await appCheckToken(t.app);
    for (let i = 0; i < REGISTER_PRICING.perProof; i++)
      expect((await reg(`script${i}@example.com`, '10.5.0.1', proof)).statusCode).toBe(201);
    expect((await reg('script-next@example.com', '10.5.0.1', proof)).json()).toMatchObject({
      code: 'APP_CHECK_INVALID',
    });
    await t.db.insert(rateLimitCounters).values({
      key: bucketKey('register:ip-burst', '10.5.0.2'),
      count: REGISTER_PRICING.burst.perIp,
      resetAt: new Date(t.clock.now().getTime() + 60_000),
    });
    const burst = await reg('burst@example.com', '10.5.0.2', await appCheckToken(t.app));
    expect(burst.statusCode).toBe(429);
    expect(burst.headers['retry-after']).toBeTruthy();
  });

  it('the verification mail: once a minute, and 10 a day per user', async () => {
    const proof = await appCheckToken(t.app);
    expect((await reg('bombed@example.com', '10.6.0.1', proof)).statusCode).toBe(201);
    const session = await signIn('bombed@example.com', STRONG_PASSWORD, '10.6.0.1', proof);
    const idToken = session.json<{ idToken: string }>().idToken;
    const send = async () =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/user/auth/email-verification',
        remoteAddress: '10.6.0.1',
        headers: { ...bearer(idToken), 'x-app-check': proof },
        payload: { redirectUrl: APP_ORIGIN },
      });
    for (let i = 0; i < VERIFY_MAIL_LIMITS.perUser; i++) {
      expect((await send()).statusCode).toBe(200);
      t.clock.advance(61_000);
    }
    const capped = await send();
    expect(capped.statusCode).toBe(429);
    expect(Number(capped.headers['retry-after'])).toBeGreaterThan(3600);
  }, 30_000);
});
