import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_ORIGIN, awaitMails, bearer, createSignedInUser, latestLink, outboxFor } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { expectContractError } from './security-fixtures';

/**
 * ASVS 5.1.5: `redirectUrl` (the only redirect target the API takes, API.md "Action links") must
 * be one of APP_ORIGINS; the mailed link is always `{that origin}/verify?...`, never a path or host
 * taken from the request. The web app's own redirects are checked in
 * e2e/tests/security-inert-input.spec.ts.
 */
describe('open redirect through redirectUrl', () => {
  let t: TestApp;
  let idToken: string;
  beforeAll(async () => {
    t = await createTestApp();
    ({ idToken } = await createSignedInUser(t.app, t.db, 'redirect@example.com'));
  });
  afterAll(async () => t.close());

  const verification = (redirectUrl: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/user/auth/email-verification',
      headers: bearer(idToken),
      payload: { redirectUrl },
    });
  const reset = (redirectUrl: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/user/auth/reset-password',
      payload: { email: 'redirect@example.com', redirectUrl },
    });

  const refused = [
    'https://evil.example',
    'http://evil.example/verify',
    '//evil.example',
    '///evil.example',
    '/\\evil.example',
    '\\\\evil.example',
    '/verify',
    'javascript:alert(1)',
    'JaVaScRiPt:alert(document.domain)//http://localhost:5173',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox(1)',
    'http://localhost:5173@evil.example',
    'http://localhost:5173.evil.example',
    'http://evil.example#@localhost:5173',
    'http://evil.example?http://localhost:5173',
    'http://localhost:5174',
    'https://localhost:5173',
    'http://127.0.0.1:5173',
    'http://[::1]:5173',
    'http://localhost:5173\t.evil.example',
    ' http://evil.example',
    'http://ｅｖｉｌ.example',
    '',
    'x'.repeat(3000),
  ];

  it.each(refused)(
    'refuses %j for both the verification and the reset link, and mails nothing',
    async (redirectUrl) => {
      for (const res of [await verification(redirectUrl), await reset(redirectUrl)]) {
        expectContractError(res, 400);
        expect(['REDIRECT_NOT_ALLOWED', 'VALIDATION_FAILED']).toContain(res.json().code);
      }
      expect(await outboxFor(t.db, 'redirect@example.com')).toHaveLength(0);
    },
  );

  it('refuses non-string redirect targets', async () => {
    for (const value of [null, 42, ['http://localhost:5173'], { href: 'http://localhost:5173' }]) {
      expectContractError(await verification(value), 400, 'VALIDATION_FAILED');
      expectContractError(await reset(value), 400, 'VALIDATION_FAILED');
    }
  });

  it.each([
    `${APP_ORIGIN}//evil.example/%2e%2e/?next=https://evil.example#https://evil.example`,
    'http://evil.example%2f@localhost:5173/\\evil.example',
  ])('keeps only the origin of the allowed %j: the link is always {origin}/verify', async (tricky) => {
    t.clock.advance(61_000); // one verification mail a minute
    expect((await verification(tricky)).statusCode).toBe(200);
    const link = await latestLink(t.db, 'redirect@example.com');
    expect(link.origin).toBe(APP_ORIGIN);
    expect(link.pathname).toBe('/verify');
    expect(link.username + link.password).toBe('');
    expect([...link.searchParams.keys()].sort()).toEqual(['mode', 'oobCode']);
    expect(link.hash).toBe('');
    expect((await outboxFor(t.db, 'redirect@example.com'))[0]!.html).not.toMatch(/evil/);
  });

  it('builds the reset link on the origin only, whatever the case of the allowed redirectUrl', async () => {
    const sent = (await outboxFor(t.db, 'redirect@example.com')).length;

    expect((await reset('HTTP://LOCALHOST:5173/whatever')).statusCode).toBe(200);
    const [mail] = await awaitMails(t.db, 'redirect@example.com', sent + 1);
    const resetLink = await latestLink(t.db, 'redirect@example.com');
    expect(mail!.subject).toMatch(/Reset/);
    expect(`${resetLink.origin}${resetLink.pathname}`).toBe(`${APP_ORIGIN}/verify`);
    expect(mail!.html).not.toMatch(/evil\.example/);
  });
});
