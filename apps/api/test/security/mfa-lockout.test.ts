import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, seedDemoAccounts } from '../../src/modules/accounts/demo-accounts.seed';
import { MFA_LOCK_AFTER, MFA_LOCK_MS } from '../../src/modules/staff-accounts/mfa-lockout';
import { codeAt, enrol, secondStep, signIn } from '../helpers/staff-people';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { expectContractError } from './security-fixtures';

const SUPPORT = 'support@kringle.test';

/**
 * Issue 48 item 2 (NIST SP 800-63B 5.2.2, decision 0080): wrong second-factor codes are counted per
 * account, whichever mfaToken, address or API instance they come from; a right code starts the
 * count again; the MFA_LOCK_AFTER-th wrong one in a row locks every code out for 15 minutes.
 */
describe('second-factor lockout per account', () => {
  let t: TestApp;
  let other: TestApp;
  let secret: string;
  let recoveryCodes: string[];

  beforeAll(async () => {
    // The request limits are off (the many sign-ins for one e-mail would meet them): the lock is the account's own.
    t = await createTestApp();
    other = await createTestApp({}, t.clock, undefined, { databaseUrl: t.databaseUrl });
    await seedDemoAccounts(t.db, t.clock.now());
    ({ secret, recoveryCodes } = await enrol(t.app, t.clock, SUPPORT, DEMO_PASSWORD));
  });
  afterAll(async () => {
    await other?.app.close();
    await other?.pool.end();
    await t?.close();
  });

  let guess = 0;
  /** `n` wrong codes, two per mfaToken, each from its own address, alternating between the instances. */
  async function wrongCodes(n: number) {
    const answers = [];
    for (let i = 0; i < n; i += 2) {
      const mfaToken = (await signIn(t.app, SUPPORT, DEMO_PASSWORD)).json().mfaToken as string;
      for (let k = i; k < Math.min(n, i + 2); k++) {
        guess++;
        answers.push(
          await secondStep(
            guess % 2 ? t.app : other.app,
            mfaToken,
            String(200000 + guess),
            `10.48.${guess % 250}.${(guess % 7) + 1}`,
          ),
        );
      }
    }
    return answers;
  }
  const rightCode = async (app = t.app) => {
    t.clock.advance(30_000);
    return secondStep(
      app,
      (await signIn(t.app, SUPPORT, DEMO_PASSWORD)).json().mfaToken as string,
      codeAt(secret, t.clock.now()),
      '10.49.0.1',
    );
  };

  it('a right code starts the count again: 9 wrong, a right one, 9 wrong still lock nothing', async () => {
    for (const res of await wrongCodes(MFA_LOCK_AFTER - 1)) expectContractError(res, 401, 'INVALID_MFA_CODE');
    expect((await rightCode()).statusCode).toBe(200);
    for (const res of await wrongCodes(MFA_LOCK_AFTER - 1)) expectContractError(res, 401, 'INVALID_MFA_CODE');
    expect((await rightCode(other.app)).statusCode).toBe(200);
    const [row] = (
      await t.db.execute(sql`select mfa_failed_count, mfa_locked_until from users where email = ${SUPPORT}`)
    ).rows;
    expect(row).toMatchObject({ mfa_failed_count: 0, mfa_locked_until: null });
  });

  it(
    `the ${MFA_LOCK_AFTER}th wrong code in a row locks the account: 429 with Retry-After for every code, on every ` +
      `instance, until 15 minutes are up`,
    async () => {
      const answers = await wrongCodes(MFA_LOCK_AFTER);
      for (const res of answers.slice(0, -1)) expectContractError(res, 401, 'INVALID_MFA_CODE');
      const locked = answers.at(-1)!;
      expectContractError(locked, 429, 'RATE_LIMITED');
      expect(locked.json().error).toMatch(/accepts no code, recovery codes included, for 15 minutes/);
      expect(locked.headers['retry-after']).toBe(String(MFA_LOCK_MS / 1000));

      t.clock.advance(60_000);
      for (const app of [t.app, other.app]) {
        const res = await rightCode(app);
        expectContractError(res, 429, 'RATE_LIMITED');
        expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(MFA_LOCK_MS / 1000 - 60);
      }
      const recovery = await secondStep(
        other.app,
        (await signIn(t.app, SUPPORT, DEMO_PASSWORD)).json().mfaToken as string,
        recoveryCodes[0]!,
        '10.50.0.1',
      );
      expectContractError(recovery, 429, 'RATE_LIMITED');

      const mails = (
        await t.db.execute(
          sql`select to_address, subject, text from mail_outbox where subject like '%locked%' order by to_address`,
        )
      ).rows;
      expect(mails.map((m) => m.to_address)).toEqual(['manager@kringle.test', SUPPORT]);
      expect(String(mails[1]!.text)).toMatch(/10 wrong codes in a row/);
      const entries = (
        await t.db.execute(sql`select actor_kind, reason, after from audit_entries where action = 'staff.mfa_locked'`)
      ).rows;
      expect(entries).toEqual([
        expect.objectContaining({
          actor_kind: 'system',
          after: expect.objectContaining({ email: SUPPORT, failedCodes: MFA_LOCK_AFTER }),
        }),
      ]);

      // The lock ends by itself; the recovery code refused during it was not spent.
      t.clock.advance(MFA_LOCK_MS);
      expect((await rightCode(other.app)).statusCode).toBe(200);
      expect(
        (
          await secondStep(
            t.app,
            (await signIn(t.app, SUPPORT, DEMO_PASSWORD)).json().mfaToken as string,
            recoveryCodes[0]!,
            '10.50.0.2',
          )
        ).statusCode,
      ).toBe(200);
    },
  );
});
