import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { actionCodes } from '../../src/db/schema/accounts';
import {
  APP_ORIGIN,
  awaitMails,
  bearer,
  createSignedInUser,
  latestLink,
  outboxFor,
  refresh,
  register,
  signIn,
  STRONG_PASSWORD,
} from '../helpers/accounts';
import { sha256 } from '../../src/modules/accounts/secure-tokens';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

describe('e-mail actions: verification, password reset, action codes', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload, headers });
  const askVerification = (idToken: string, redirectUrl = APP_ORIGIN) =>
    post('/user/auth/email-verification', { redirectUrl }, bearer(idToken));
  const askReset = (email: string, redirectUrl = APP_ORIGIN) =>
    post('/user/auth/reset-password', { email, redirectUrl });

  it('mails a branded verification link on the app origin, then verifies with it once', async () => {
    const u = await createSignedInUser(t.app, t.db, 'verify@example.com');
    const res = await askVerification(u.idToken, `${APP_ORIGIN}/some/page`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: 'Verification email sent successfully' });

    const [mail] = await outboxFor(t.db, 'verify@example.com');
    expect(mail!.subject).toContain('Verify your email address');
    expect(mail!.html).toContain('Kringle');
    const link = await latestLink(t.db, 'verify@example.com');
    expect(link.origin + link.pathname).toBe(`${APP_ORIGIN}/verify`);
    expect(link.searchParams.get('mode')).toBe('verifyEmail');
    const oobCode = link.searchParams.get('oobCode')!;
    expect(Buffer.from(oobCode, 'base64url')).toHaveLength(32);
    expect(mail!.html).toContain(oobCode);
    // Stored hashed only.
    expect(await t.db.select().from(actionCodes).where(eq(actionCodes.codeHash, oobCode))).toHaveLength(0);
    expect(
      await t.db
        .select()
        .from(actionCodes)
        .where(eq(actionCodes.codeHash, sha256(oobCode))),
    ).toHaveLength(1);

    const check = await post('/auth/action/check', { oobCode });
    expect(check.json()).toEqual({ mode: 'verifyEmail', email: 'v***y@example.com' });
    const verified = await post('/auth/action/verify-email', { oobCode });
    expect(verified.statusCode).toBe(200);
    expect(verified.json().message).toEqual(expect.any(String));
    const again = await post('/auth/action/verify-email', { oobCode });
    expect(again.statusCode).toBe(400);
    expect(again.json().code).toBe('INVALID_ACTION_CODE');
    expect((await post('/auth/action/check', { oobCode })).json().code).toBe('INVALID_ACTION_CODE');

    // The old token still says unverified; the customer route checks the database instead.
    const patch = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/user/me',
      headers: bearer(u.idToken),
      payload: { lastName: 'Ok' },
    });
    expect(patch.statusCode).toBe(200);
    const fresh = await refresh(t.app, u.refreshToken);
    expect(fresh.json().user.emailVerified).toBe(true);
    expect(JSON.parse(Buffer.from(fresh.json().idToken.split('.')[1], 'base64url').toString()).email_verified).toBe(
      true,
    );

    const already = await askVerification(u.idToken);
    expect(already.statusCode).toBe(409);
    expect(already.json().code).toBe('ALREADY_VERIFIED');
  });

  it('builds links only on an allowed app origin (400 REDIRECT_NOT_ALLOWED)', async () => {
    const u = await createSignedInUser(t.app, t.db, 'redirect@example.com');
    for (const redirectUrl of ['https://evil.example', 'http://localhost:5174', 'https://localhost:5173']) {
      const res = await askVerification(u.idToken, redirectUrl);
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('REDIRECT_NOT_ALLOWED');
    }
    expect((await askVerification(u.idToken, 'javascript:alert(1)')).json().code).toBe('VALIDATION_FAILED');
    const reset = await askReset('redirect@example.com', 'https://evil.example');
    expect(reset.json().code).toBe('REDIRECT_NOT_ALLOWED');
    expect(await outboxFor(t.db, 'redirect@example.com')).toHaveLength(0);
    expect((await askVerification(u.idToken, 'http://localhost:3000')).statusCode).toBe(200);
  });

  it('sends at most one verification e-mail a minute per user (429 RATE_LIMITED, Retry-After)', async () => {
    const u = await createSignedInUser(t.app, t.db, 'often@example.com');
    expect((await askVerification(u.idToken)).statusCode).toBe(200);
    t.clock.advance(20 * 1000);
    const soon = await askVerification(u.idToken);
    expect(soon.statusCode).toBe(429);
    expect(soon.json()).toMatchObject({ code: 'RATE_LIMITED', error: expect.stringContaining('40 seconds') });
    expect(soon.headers['retry-after']).toBe('40');
    t.clock.advance(40 * 1000);
    expect((await askVerification(u.idToken)).statusCode).toBe(200);
    expect(await outboxFor(t.db, 'often@example.com')).toHaveLength(2);
  });

  it('requires a token for the verification e-mail and lets an expired verify link fail clearly', async () => {
    expect((await post('/user/auth/email-verification', { redirectUrl: APP_ORIGIN })).json().code).toBe(
      'UNAUTHENTICATED',
    );
    const u = await createSignedInUser(t.app, t.db, 'late@example.com');
    await askVerification(u.idToken);
    const oobCode = (await latestLink(t.db, 'late@example.com')).searchParams.get('oobCode')!;
    t.clock.advance(24 * HOUR + MINUTE);
    const res = await post('/auth/action/verify-email', { oobCode });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('EXPIRED_ACTION_CODE');
    expect((await post('/auth/action/check', { oobCode })).json().code).toBe('EXPIRED_ACTION_CODE');
  });

  it('answers a reset request the same whether or not the account exists', async () => {
    await register(t.app, 'exists@example.com');
    const known = await askReset('exists@example.com');
    const unknown = await askReset('ghost@example.com');
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(known.statusCode);
    expect(unknown.json()).toEqual(known.json());
    expect(await awaitMails(t.db, 'exists@example.com')).toHaveLength(1);
    expect(await outboxFor(t.db, 'ghost@example.com')).toHaveLength(0);
    expect((await askReset('not an email')).json().code).toBe('VALIDATION_FAILED');
  });

  it('resets the password once, refuses the old one and revokes every refresh token', async () => {
    const u = await createSignedInUser(t.app, t.db, 'reset@example.com');
    const other = await signIn(t.app, 'reset@example.com');
    expect(other.statusCode).toBe(200);
    await askReset('reset@example.com');
    const [mail] = await awaitMails(t.db, 'reset@example.com');
    expect(mail!.subject).toContain('Reset your');
    const link = await latestLink(t.db, 'reset@example.com');
    expect(link.searchParams.get('mode')).toBe('resetPassword');
    const oobCode = link.searchParams.get('oobCode')!;
    expect((await post('/auth/action/check', { oobCode })).json()).toEqual({
      mode: 'resetPassword',
      email: 'r***t@example.com',
    });
    // A verify-email call cannot spend a reset code.
    expect((await post('/auth/action/verify-email', { oobCode })).json().code).toBe('INVALID_ACTION_CODE');

    const weak = await post('/auth/action/reset-password', { oobCode, newPassword: 'password123' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ code: 'WEAK_PASSWORD', details: [{ path: 'body.newPassword' }] });
    const sameAsEmail = await post('/auth/action/reset-password', { oobCode, newPassword: 'Reset@Example.com' });
    expect(sameAsEmail.json().code).toBe('WEAK_PASSWORD');

    const done = await post('/auth/action/reset-password', { oobCode, newPassword: 'Fresh-Snow-On-The-Roof-7' });
    expect(done.statusCode).toBe(200);
    expect(
      (await post('/auth/action/reset-password', { oobCode, newPassword: 'Another-Fresh-Snow-8' })).json().code,
    ).toBe('INVALID_ACTION_CODE');

    expect((await signIn(t.app, 'reset@example.com', STRONG_PASSWORD)).json().code).toBe('INVALID_CREDENTIALS');
    expect((await signIn(t.app, 'reset@example.com', 'Fresh-Snow-On-The-Roof-7')).statusCode).toBe(200);
    expect((await refresh(t.app, u.refreshToken)).statusCode).toBe(401);
    const otherCookie = other.cookies.find((c) => c.name === 'kringle_refresh')!.value;
    expect((await refresh(t.app, otherCookie)).statusCode).toBe(401);
  });

  it('voids older reset links when a new one is sent, and expires reset links after an hour', async () => {
    await register(t.app, 'twice@example.com');
    await askReset('twice@example.com');
    await awaitMails(t.db, 'twice@example.com', 1);
    const first = (await latestLink(t.db, 'twice@example.com')).searchParams.get('oobCode')!;
    t.clock.advance(MINUTE);
    await askReset('twice@example.com');
    await awaitMails(t.db, 'twice@example.com', 2);
    const second = (await latestLink(t.db, 'twice@example.com')).searchParams.get('oobCode')!;
    expect(second).not.toBe(first);
    expect(
      (await post('/auth/action/reset-password', { oobCode: first, newPassword: 'Fresh-Snow-On-The-Roof-7' })).json()
        .code,
    ).toBe('INVALID_ACTION_CODE');
    expect((await post('/auth/action/check', { oobCode: second })).statusCode).toBe(200);
    t.clock.advance(HOUR);
    const late = await post('/auth/action/reset-password', {
      oobCode: second,
      newPassword: 'Fresh-Snow-On-The-Roof-7',
    });
    expect(late.statusCode).toBe(400);
    expect(late.json().code).toBe('EXPIRED_ACTION_CODE');
  });

  it('refuses unknown codes and bad bodies', async () => {
    expect((await post('/auth/action/check', { oobCode: 'no-such-code' })).json().code).toBe('INVALID_ACTION_CODE');
    expect((await post('/auth/action/check', {})).json().code).toBe('VALIDATION_FAILED');
    expect((await post('/auth/action/verify-email', { oobCode: 'x', extra: 1 })).json().code).toBe('VALIDATION_FAILED');
    expect(
      (
        await post('/auth/action/reset-password', { oobCode: 'no-such-code', newPassword: 'Fresh-Snow-On-The-Roof-7' })
      ).json().code,
    ).toBe('INVALID_ACTION_CODE');
  });
});

describe('shutdown with a reset request just answered', () => {
  it('writes the reset mail before the pool closes (as server.ts closes it: a root onClose)', async () => {
    const t = await createTestApp({}, undefined, (app) => {
      app.addHook('onClose', async () => app.pool.end());
    });
    const errors: unknown[] = [];
    await register(t.app, 'closing@example.com');
    // Many queued at once, so the queue is still busy when close() begins.
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/user/auth/reset-password',
          payload: { email: 'closing@example.com', redirectUrl: APP_ORIGIN },
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode)).toEqual([200, 200, 200, 200, 200]);
    await t.app.close().catch((err: unknown) => errors.push(err));
    expect(errors).toEqual([]);
    const check = new pg.Client({ connectionString: t.databaseUrl });
    await check.connect();
    try {
      const { rows } = await check.query<{ n: number }>(
        "select count(*)::int as n from mail_outbox where to_address = 'closing@example.com'",
      );
      expect(rows[0]!.n).toBe(5);
    } finally {
      await check.end();
    }
  });
});
