import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { APP_ORIGIN, STRONG_PASSWORD } from './accounts.test-support';

describe('accounts rate limits (API.md: sign-in 10/min, register 5/h, reset 3/h; per IP and per e-mail)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MODE: 'on' });
  });
  afterAll(async () => t.close());

  const signIn = (email: string, ip: string) =>
    t.app.inject({ method: 'POST', url: '/api/v1/auth/sign-in', remoteAddress: ip, payload: { email, password: 'Wrong-Password-1' } });

  it('limits sign-in per e-mail across IPs, with Retry-After, and the window ends', async () => {
    for (let i = 0; i < 10; i++) expect((await signIn('target@example.com', `10.0.0.${i + 1}`)).statusCode).toBe(401);
    const limited = await signIn('target@example.com', '10.0.1.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ code: 'RATE_LIMITED', error: expect.stringMatching(/Try again in \d+ seconds?/) });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await signIn('someone-else@example.com', '10.0.1.1')).statusCode).toBe(401);
    t.clock.advance(61 * 1000);
    expect((await signIn('target@example.com', '10.0.1.1')).statusCode).toBe(401);
  });

  it('limits sign-in per IP across e-mails', async () => {
    for (let i = 0; i < 10; i++) expect((await signIn(`user${i}@example.com`, '10.9.9.9')).statusCode).toBe(401);
    expect((await signIn('fresh@example.com', '10.9.9.9')).statusCode).toBe(429);
  });

  it('limits registration to 5 an hour per IP', async () => {
    const reg = (i: number) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/user',
        remoteAddress: '10.7.7.7',
        payload: { email: `reg${i}@example.com`, password: STRONG_PASSWORD, firstName: 'A', lastName: 'B' },
      });
    for (let i = 0; i < 5; i++) expect((await reg(i)).statusCode).toBe(201);
    const limited = await reg(5);
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeTruthy();
  });

  it('limits reset requests to 3 an hour per e-mail, whether or not the account exists', async () => {
    const reset = (ip: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/user/auth/reset-password', remoteAddress: ip, payload: { email: 'nobody@example.com', redirectUrl: APP_ORIGIN } });
    for (let i = 0; i < 3; i++) expect((await reset(`10.5.5.${i + 1}`)).statusCode).toBe(200);
    expect((await reset('10.5.6.1')).statusCode).toBe(429);
  });
});
