import { eq } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/accounts';
import { DEMO_PASSWORD, seedDemoAccounts } from '../../src/modules/accounts/demo-accounts.seed';
import { MFA_LIMITS } from '../../src/modules/accounts/account-limits';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { APP_ORIGIN, awaitMails, latestLink } from '../helpers/accounts';
import { bearer, codeAt, cookieOf, enrol, secondStep, signIn } from '../helpers/staff-people';
import { expectContractError } from './security-fixtures';

const MANAGER = 'manager@kringle.test';

/**
 * Issue 34's second factor (decision 0050) and the ways around it: skipping the second step,
 * replaying a code, reusing a recovery code, the mfaToken after use or after it expired, guessing.
 */
describe('TOTP second factor and two-step staff sign-in', () => {
  let t: TestApp;
  let secret: string;
  let recoveryCodes: string[];

  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MODE: 'on' });
    await seedDemoAccounts(t.db, t.clock.now());
  });
  afterAll(async () => t?.close());

  const mfaToken = async () => {
    const res = await signIn(t.app, MANAGER, DEMO_PASSWORD);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().mfaToken as string;
  };

  it(
    'refuses a manager every staff call but enrolment until enrolled (403 MFA_REQUIRED), then enrols with a QR URL ' +
      'and 10 recovery codes',
    async () => {
      const first = await signIn(t.app, MANAGER, DEMO_PASSWORD);
      const idToken = first.json().idToken as string;
      expect(decodeJwt(idToken)).toMatchObject({ dashboard_user: true, staff_role: 'manager' });
      expectContractError(
        await t.app.inject({ url: '/api/v1/staff/accounts', headers: bearer(idToken) }),
        403,
        'MFA_REQUIRED',
      );
      expect((await t.app.inject({ url: '/api/v1/staff/me', headers: bearer(idToken) })).json()).toMatchObject({
        role: 'manager',
        mfaEnrolled: false,
        mfaRequired: true,
      });
      const setup = await t.app.inject({
        method: 'POST',
        url: '/api/v1/staff/mfa/setup',
        headers: bearer(idToken),
        payload: {},
      });
      expect(setup.json().otpauthUrl).toMatch(/^otpauth:\/\/totp\/Kringle:manager%40kringle\.test\?.*secret=/);
      // Stored sealed, never as the secret itself.
      const [row] = await t.db.select().from(users).where(eq(users.email, MANAGER));
      expect(row!.mfaSecret).toBeTruthy();
      expect(row!.mfaSecret).not.toContain(setup.json().secret);
      const wrong = await t.app.inject({
        method: 'POST',
        url: '/api/v1/staff/mfa/confirm',
        headers: bearer(idToken),
        payload: { code: '000000' },
      });
      expectContractError(wrong, 400, 'VALIDATION_FAILED');
      const enrolled = await enrol(t.app, t.clock, MANAGER, DEMO_PASSWORD);
      secret = enrolled.secret;
      recoveryCodes = enrolled.recoveryCodes;
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      expect(JSON.stringify(await t.db.select().from(users).where(eq(users.email, MANAGER)))).not.toContain(
        recoveryCodes[0],
      );
      expect(
        (await t.app.inject({ url: '/api/v1/staff/accounts', headers: bearer(enrolled.idToken) })).statusCode,
      ).toBe(200);
      expectContractError(
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/staff/mfa/setup',
          headers: bearer(enrolled.idToken),
          payload: {},
        }),
        409,
        'MFA_ALREADY_ENROLLED',
      );
      // The secret is in no answer about the account.
      expect(
        (await t.app.inject({ url: '/api/v1/staff/accounts', headers: bearer(enrolled.idToken) })).body,
      ).not.toContain(secret);
    },
  );

  it(
    'answers the password with a challenge only (no ID token, no cookie); the code gives the usual ' + 'session',
    async () => {
      const first = await signIn(t.app, MANAGER, DEMO_PASSWORD);
      expect(first.json()).toEqual({ mfaRequired: true, mfaToken: expect.any(String) });
      expect(cookieOf(first)).toBeUndefined();
      // Skipping the second step: the challenge is no ID token, and there is no cookie to refresh.
      expectContractError(
        await t.app.inject({
          url: '/api/v1/staff/run-sheet?locationId=00000000-0000-4000-8000-000000000000',
          headers: bearer(first.json().mfaToken),
        }),
        401,
        'UNAUTHENTICATED',
      );
      expectContractError(await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh' }), 401, 'UNAUTHENTICATED');
      expectContractError(await secondStep(t.app, first.json().mfaToken, '123456'), 401, 'INVALID_MFA_CODE');
      const second = await secondStep(t.app, first.json().mfaToken, codeAt(secret, t.clock.now()));
      expect(second.statusCode, second.body).toBe(200);
      expect(second.json()).toMatchObject({ idToken: expect.any(String), user: { email: MANAGER } });
      expect(cookieOf(second)).toBeTruthy();
      // The mfaToken after use.
      t.clock.advance(30_000);
      expectContractError(
        await secondStep(t.app, first.json().mfaToken, codeAt(secret, t.clock.now())),
        401,
        'UNAUTHENTICATED',
      );
    },
  );

  it('accepts a TOTP code once: the same code again (or an older one) is refused', async () => {
    const code = codeAt(secret, t.clock.now());
    expect((await secondStep(t.app, await mfaToken(), code)).statusCode).toBe(200);
    expectContractError(await secondStep(t.app, await mfaToken(), code), 401, 'INVALID_MFA_CODE');
    expectContractError(
      await secondStep(t.app, await mfaToken(), codeAt(secret, new Date(t.clock.now().getTime() - 30_000))),
      401,
      'INVALID_MFA_CODE',
    );
    t.clock.advance(30_000);
    expect((await secondStep(t.app, await mfaToken(), codeAt(secret, t.clock.now()))).statusCode).toBe(200);
  });

  it('accepts each recovery code once, typed in any case and without the dash', async () => {
    const typed = recoveryCodes[0]!.toUpperCase().replace('-', '');
    expect((await secondStep(t.app, await mfaToken(), typed)).statusCode).toBe(200);
    expectContractError(await secondStep(t.app, await mfaToken(), recoveryCodes[0]!), 401, 'INVALID_MFA_CODE');
    expect((await secondStep(t.app, await mfaToken(), recoveryCodes[1]!)).statusCode).toBe(200);
    expectContractError(await secondStep(t.app, await mfaToken(), 'aaaaa-bbbbb'), 401, 'INVALID_MFA_CODE');
  });

  it('lets the mfaToken expire after 5 minutes', async () => {
    const token = await mfaToken();
    t.clock.advance(5 * 60_000 + 1000);
    expectContractError(await secondStep(t.app, token, codeAt(secret, t.clock.now())), 401, 'UNAUTHENTICATED');
  });

  it('limits wrong codes like passwords: per mfaToken, then 429 even with the right code', async () => {
    const token = await mfaToken();
    for (let i = 0; i < MFA_LIMITS.perToken; i++)
      expectContractError(
        await secondStep(t.app, token, String(100000 + i), `10.1.0.${i + 1}`),
        401,
        'INVALID_MFA_CODE',
      );
    const limited = await secondStep(t.app, token, codeAt(secret, t.clock.now()), '10.1.1.1');
    expectContractError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it(
    'a password reset does not get past the second factor: it signs in nowhere, and the new password still asks for ' +
      'a code (ASVS 6.4.3)',
    async () => {
      const post = (url: string, payload: object) =>
        t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload, remoteAddress: '10.1.2.1' });
      expect((await post('/user/auth/reset-password', { email: MANAGER, redirectUrl: APP_ORIGIN })).statusCode).toBe(
        200,
      );
      await awaitMails(t.db, MANAGER);
      const oobCode = (await latestLink(t.db, MANAGER)).searchParams.get('oobCode')!;
      const reset = await post('/auth/action/reset-password', { oobCode, newPassword: 'Reindeer-Games-At-Dawn-3' });
      expect(reset.statusCode, reset.body).toBe(200);
      expect(reset.json().idToken).toBeUndefined();
      expect(cookieOf(reset)).toBeUndefined();
      const first = await signIn(t.app, MANAGER, 'Reindeer-Games-At-Dawn-3');
      expect(first.json()).toEqual({ mfaRequired: true, mfaToken: expect.any(String) });
      expect(cookieOf(first)).toBeUndefined();
      expect((await secondStep(t.app, first.json().mfaToken, codeAt(secret, t.clock.now()))).statusCode).toBe(200);
    },
  );

  it('never asks a customer or an unenrolled set member for a second step', async () => {
    for (const email of ['demo@kringle.test', 'elf@kringle.test']) {
      const res = await signIn(t.app, email, DEMO_PASSWORD);
      expect(res.json()).toMatchObject({ idToken: expect.any(String) });
      expect(res.json().mfaRequired).toBeUndefined();
    }
    const family = decodeJwt((await signIn(t.app, 'demo@kringle.test', DEMO_PASSWORD)).json().idToken);
    expect(family.staff_role).toBeUndefined();
    // Staff claims only: a family's token carries no bytes nobody reads (decision 0077).
    expect(family.amr).toBeUndefined();
    expect(family.sid).toBeUndefined();
    expect(decodeJwt((await signIn(t.app, 'elf@kringle.test', DEMO_PASSWORD)).json().idToken)).toMatchObject({
      amr: ['pwd'],
      sid: expect.any(String),
    });
  });
});
