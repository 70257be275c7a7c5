import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DEMO_PASSWORD, seedDemoAccounts } from '../../src/modules/accounts/demo-accounts.seed';
import { REFRESH_COOKIE } from '../../src/modules/accounts/refresh-cookie';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { expectContractError } from '../security/security-fixtures';
import { awaitMails } from '../helpers/accounts';
import { bearer, codeAt, cookieOf, enrol, secondStep, signIn } from '../helpers/staff-people';
import { createTestApp, type TestApp } from '../helpers/test-app';

const NEW_PASSWORD = 'Tinsel-Town-2026';

/**
 * Issue 34's staff accounts (decision 0050): invitations, role and location changes, a lost second factor reset. Their
 * sessions (deactivation, sign out everywhere, time limits): staff-sessions.test.ts.
 */
describe('staff accounts', () => {
  let t: TestApp;
  let manager: string;
  let managerSecret: string;
  let sydney: string;

  beforeAll(async () => {
    t = await createTestApp();
    await loadSeason(t.db, demoSeason(t.clock.now(), { days: 3 }), t.clock.now());
    await seedDemoAccounts(t.db, t.clock.now());
    ({ idToken: manager, secret: managerSecret } = await enrol(t.app, t.clock, 'manager@kringle.test', DEMO_PASSWORD));
    sydney = (await t.db.execute(sql`select id from locations where slug = 'sydney-pitt-street'`)).rows[0]!
      .id as string;
  });
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, idToken: string | null, payload?: object) =>
    t.app.inject({
      method,
      url: `/api/v1${url}`,
      headers: idToken ? bearer(idToken) : {},
      ...(payload ? { payload } : {}),
    });
  const codeOf = (link: string) => new URL(link).searchParams.get('code')!;
  const inviteLink = async (email: string) =>
    /https?:\/\/\S+\/staff\/invite\?code=[\w-]+/.exec((await awaitMails(t.db, email))[0]!.text)![0];

  it('lists the demo staff with their roles, never a secret', async () => {
    const res = await call('GET', '/staff/accounts', manager);
    const items = res.json().items as { email: string; role: string; mfaEnrolled: boolean; active: boolean }[];
    expect(items.map((i) => [i.email, i.role, i.mfaEnrolled])).toEqual([
      ['elf@kringle.test', 'set', false],
      ['manager@kringle.test', 'manager', true],
      ['support@kringle.test', 'support', false],
    ]);
    expect(res.body).not.toMatch(/password|mfaSecret|secret/i);
  });

  it('invites by e-mail; the single-use link sets the password; the new member signs in with their role', async () => {
    const created = await call('POST', '/staff/accounts', manager, {
      email: ' Holly.Berry@Kringle.test ',
      role: 'set',
      locationIds: [sydney],
    });
    expect(created.statusCode, created.body).toBe(201);
    expect(created.json()).toMatchObject({
      email: 'holly.berry@kringle.test',
      role: 'set',
      locationIds: [sydney],
      mfaEnrolled: false,
      active: true,
      lastSignInAt: null,
      invitationPending: true,
    });
    const link = await inviteLink('holly.berry@kringle.test');
    expect(link).toContain('/staff/invite?code=');
    const pending = (await call('GET', '/staff/accounts', manager))
      .json()
      .items.find((i: { email: string }) => i.email === 'holly.berry@kringle.test');
    expect(pending).toMatchObject({ invitationPending: true, lastSignInAt: null });
    // No password works before the invitation is accepted.
    expectContractError(await signIn(t.app, 'holly.berry@kringle.test', NEW_PASSWORD), 401, 'INVALID_CREDENTIALS');
    expectContractError(
      await call('POST', '/staff/invitations/accept', null, { code: codeOf(link), password: 'password' }),
      400,
      'WEAK_PASSWORD',
    );
    const accepted = await call('POST', '/staff/invitations/accept', null, {
      code: codeOf(link),
      password: NEW_PASSWORD,
    });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expectContractError(
      await call('POST', '/staff/invitations/accept', null, { code: codeOf(link), password: NEW_PASSWORD }),
      400,
      'INVALID_ACTION_CODE',
    );
    const session = await signIn(t.app, 'holly.berry@kringle.test', NEW_PASSWORD);
    expect(decodeJwt(session.json().idToken)).toMatchObject({ dashboard_user: true, staff_role: 'set' });
    const listed = (await call('GET', '/staff/accounts', manager))
      .json()
      .items.find((i: { email: string }) => i.email === 'holly.berry@kringle.test');
    expect(listed).toMatchObject({ invitationPending: false, lastSignInAt: expect.any(String) });
    expectContractError(await call('GET', '/staff/accounts', session.json().idToken), 403, 'ROLE_FORBIDDEN');
    expectContractError(
      await call('POST', '/staff/accounts', manager, {
        email: 'holly.berry@kringle.test',
        role: 'set',
        locationIds: [],
      }),
      409,
      'EMAIL_IN_USE',
    );
  });

  it('refuses an expired invitation and unknown locations', async () => {
    await call('POST', '/staff/accounts', manager, { email: 'late@kringle.test', role: 'support', locationIds: [] });
    const link = await inviteLink('late@kringle.test');
    t.clock.advance(7 * 24 * 3600_000 + 1000);
    manager = (await signInAgain()).idToken;
    expectContractError(
      await call('POST', '/staff/invitations/accept', null, { code: codeOf(link), password: NEW_PASSWORD }),
      400,
      'INVALID_ACTION_CODE',
    );
    expectContractError(
      await call('POST', '/staff/accounts', manager, {
        email: 'x@kringle.test',
        role: 'set',
        locationIds: ['00000000-0000-4000-8000-000000000000'],
      }),
      400,
      'VALIDATION_FAILED',
    );
    expectContractError(
      await call('POST', '/staff/accounts', manager, { email: 'x@kringle.test', role: 'boss', locationIds: [] }),
      400,
      'VALIDATION_FAILED',
    );
  });

  /** The manager's two steps again, with a fresh code (the clock moved on). */
  async function signInAgain() {
    const first = await signIn(t.app, 'manager@kringle.test', DEMO_PASSWORD);
    t.clock.advance(30_000);
    const res = await secondStep(t.app, first.json().mfaToken, codeAt(managerSecret, t.clock.now()));
    return res.json() as { idToken: string };
  }

  it('changes role and locations; the change applies to the next request, not the next sign-in', async () => {
    const elf = await signIn(t.app, 'elf@kringle.test', DEMO_PASSWORD);
    const elfToken = elf.json().idToken as string;
    const id = decodeJwt(elfToken).sub!;
    expect((await call('GET', `/staff/run-sheet?locationId=${sydney}`, elfToken)).statusCode).toBe(200);
    const brisbane = (await t.db.execute(sql`select id from locations where slug = 'brisbane-queen-street'`)).rows[0]!
      .id as string;
    const patched = await call('PATCH', `/staff/accounts/${id}`, manager, { locationIds: [brisbane] });
    expect(patched.json()).toMatchObject({ role: 'set', locationIds: [brisbane] });
    expectContractError(
      await call('GET', `/staff/run-sheet?locationId=${sydney}`, elfToken),
      403,
      'LOCATION_FORBIDDEN',
    );
    await call('PATCH', `/staff/accounts/${id}`, manager, { role: 'manager', locationIds: [] });
    // A manager now, so a second factor first: the password-only session ends (issue 48), token and cookie.
    expectContractError(await call('GET', `/staff/run-sheet?locationId=${sydney}`, elfToken), 401, 'UNAUTHENTICATED');
    expectContractError(
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/refresh',
        cookies: { [REFRESH_COOKIE]: cookieOf(elf)! },
      }),
      401,
      'UNAUTHENTICATED',
    );
    const promoted = (await signIn(t.app, 'elf@kringle.test', DEMO_PASSWORD)).json().idToken as string;
    expectContractError(await call('GET', `/staff/run-sheet?locationId=${sydney}`, promoted), 403, 'MFA_REQUIRED');
    // Back to the set: no factor needed, so that session goes on.
    await call('PATCH', `/staff/accounts/${id}`, manager, { role: 'set' });
    expect((await call('GET', `/staff/run-sheet?locationId=${sydney}`, promoted)).statusCode).toBe(200);
    expectContractError(await call('PATCH', `/staff/accounts/${id}`, manager, {}), 400, 'VALIDATION_FAILED');
    expectContractError(
      await call('PATCH', '/staff/accounts/00000000-0000-4000-8000-000000000000', manager, { active: false }),
      404,
      'NOT_FOUND',
    );
  });

  it('keeps a manager from demoting, deactivating or resetting themself', async () => {
    const id = decodeJwt(manager).sub!;
    expectContractError(await call('PATCH', `/staff/accounts/${id}`, manager, { active: false }), 400, 'BAD_REQUEST');
    expectContractError(await call('PATCH', `/staff/accounts/${id}`, manager, { role: 'set' }), 400, 'BAD_REQUEST');
    expectContractError(await call('PATCH', `/staff/accounts/${id}`, manager, { resetMfa: true }), 400, 'BAD_REQUEST');
  });

  it(
    "resets a member's lost second factor: sessions end, the password alone signs in, and enrolment is asked " +
      'again',
    async () => {
      const support = await enrol(t.app, t.clock, 'support@kringle.test', DEMO_PASSWORD);
      const first = await signIn(t.app, 'support@kringle.test', DEMO_PASSWORD);
      expect(first.json().mfaRequired).toBe(true);
      const id = decodeJwt(support.idToken).sub!;
      expect((await call('PATCH', `/staff/accounts/${id}`, manager, { resetMfa: true })).json()).toMatchObject({
        mfaEnrolled: false,
      });
      const again = await signIn(t.app, 'support@kringle.test', DEMO_PASSWORD);
      expect(again.json().idToken).toEqual(expect.any(String));
      expectContractError(
        await call('GET', `/staff/run-sheet?locationId=${sydney}`, again.json().idToken),
        403,
        'MFA_REQUIRED',
      );
      expect((await call('POST', '/staff/mfa/setup', again.json().idToken, {})).statusCode).toBe(200);
    },
  );
});
