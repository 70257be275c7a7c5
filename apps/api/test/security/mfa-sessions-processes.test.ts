import { sql } from 'drizzle-orm';
import { decodeJwt } from 'jose';
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import { DEMO_PASSWORD, seedDemoAccounts } from '../../src/modules/accounts/demo-accounts.seed';
import { REFRESH_COOKIE } from '../../src/modules/accounts/refresh-cookie';
import { MFA_LOCK_AFTER, MFA_LOCK_MS } from '../../src/modules/staff-accounts/mfa-lockout';
import { startApiProcesses, type ApiProcesses } from '../helpers/api-processes';
import { createProcessesDatabase } from '../helpers/processes-database';

/**
 * Issue 48 items 1 and 2 against two real API processes on one database (decision 0080): a
 * password-only staff session dies when the second factor it never passed becomes required
 * (enrolment, a role that needs it, a reset), its cookie and its ID token, on both processes; and
 * wrong codes lock the account whichever mfaToken and process they are sent with.
 */
describe('staff sessions and the second factor, on two API processes', () => {
  let api: ApiProcesses;
  let db: Db;
  let close: () => Promise<void>;
  let managerToken: string;
  let supportSecret: string;
  let supportCookie: string;

  beforeAll(async () => {
    const conn = await createProcessesDatabase({ poolSize: 2 });
    ({ db, close } = conn);
    await seedDemoAccounts(db, new Date());
    api = await startApiProcesses(2, { ...conn.env, JOBS_ENABLED: 'false' });
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await close?.();
  });

  const at = (
    i: number,
    path: string,
    init: { method?: string; token?: string; body?: unknown; cookie?: string } = {},
  ) =>
    fetch(`${api.urls[i]}/api/v1${path}`, {
      method: init.method ?? (init.body || init.cookie !== undefined ? 'POST' : 'GET'),
      headers: {
        ...(init.token ? { authorization: `Bearer ${init.token}` } : {}),
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...(init.cookie ? { cookie: `${REFRESH_COOKIE}=${init.cookie}` } : {}),
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
  const cookieOf = (res: Response) =>
    res.headers
      .getSetCookie()
      .find((c) => c.startsWith(`${REFRESH_COOKIE}=`))
      ?.split(';')[0]!
      .slice(REFRESH_COOKIE.length + 1);
  const codeNow = (secret: string, offsetMs = 0) =>
    new TOTP({ secret: Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({
      timestamp: Date.now() + offsetMs,
    });
  const refresh = (i: number, cookie: string) => at(i, '/auth/refresh', { cookie });

  async function passwordSession(i: number, email: string) {
    const res = await at(i, '/auth/sign-in', { body: { email, password: DEMO_PASSWORD } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { idToken?: string; mfaToken?: string };
    return { idToken: body.idToken!, mfaToken: body.mfaToken, cookie: cookieOf(res) };
  }

  /** Enrols on `i` from a session of its own; answers the secret and that session after its refresh. */
  async function enrol(i: number, email: string) {
    const session = await passwordSession(i, email);
    const setup = await at(i, '/staff/mfa/setup', { token: session.idToken, body: {} });
    const { secret } = (await setup.json()) as { secret: string };
    const confirm = await at(i, '/staff/mfa/confirm', { token: session.idToken, body: { code: codeNow(secret) } });
    expect(confirm.status, await confirm.clone().text()).toBe(200);
    return { secret, session };
  }

  /** Asks process `i` every 50 ms until the token is refused with 401: the ms it took (fails after 5 s). */
  async function refusedAfter(i: number, token: string, path = '/staff/me') {
    const started = Date.now();
    while (Date.now() - started < 5000) {
      const res = await at(i, path, { token });
      if (res.status === 401) {
        expect(await res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
        return Date.now() - started;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`process ${i} still accepts the token after 5 s`);
  }

  const auditOf = async (action: string, staffId: string) =>
    (
      await db.execute(
        sql`select actor_kind, actor_id, before, after from audit_entries where action =
${action} and after->>'staffId' = ${staffId}`,
      )
    ).rows;

  it(
    'the probe: a password-only session of a support member is refused (refresh 401, ID token 401) on both ' +
      'processes once the member enrols in another session; the enrolling one stays',
    async () => {
      const first = await passwordSession(0, 'support@kringle.test');
      expect((await at(1, '/staff/families?q=holly', { token: first.idToken })).status).toBe(403);
      expect(await (await at(1, '/staff/families?q=holly', { token: first.idToken })).json()).toMatchObject({
        code: 'MFA_REQUIRED',
      });
      // Process 1 has verified the first session's token and read the account (its 5 s cache).
      expect((await at(1, '/staff/me', { token: first.idToken })).status).toBe(200);

      const { secret, session: enrolling } = await enrol(1, 'support@kringle.test');
      supportSecret = secret;
      const staffId = decodeJwt(first.idToken).sub!;

      // The first session: its cookie and its ID token, on either process, at once.
      expect((await refresh(1, first.cookie!)).status).toBe(401);
      expect(await refusedAfter(0, first.idToken)).toBeLessThan(1500);
      expect(await refusedAfter(1, first.idToken, '/staff/families?q=holly')).toBeLessThan(1500);

      // The enrolling session proved a code: its old token is refused with every other (the epoch
      // rose), its refresh gives one that carries the factor and has full access on both processes.
      expect(await refusedAfter(0, enrolling.idToken)).toBeLessThan(1500);
      const refreshed = await refresh(0, enrolling.cookie!);
      expect(refreshed.status).toBe(200);
      const token = ((await refreshed.json()) as { idToken: string }).idToken;
      expect(decodeJwt(token)).toMatchObject({ amr: ['pwd', 'otp'], sid: expect.any(String) });
      for (const i of [0, 1]) expect((await at(i, '/staff/families?q=holly', { token })).status).toBe(200);
      supportCookie = cookieOf(refreshed)!;

      const [entry] = await auditOf('staff.mfa_enrolled', staffId);
      expect(entry).toMatchObject({
        actor_kind: 'staff',
        actor_id: staffId,
        after: { mfaEnrolled: true, enrollingSessionKept: true },
      });
    },
    60_000,
  );

  it('a role that needs the factor ends the password-only sessions at once on both processes', async () => {
    const { session } = await enrol(0, 'manager@kringle.test');
    managerToken = ((await (await refresh(0, session.cookie!)).json()) as { idToken: string }).idToken;
    const elf = await passwordSession(1, 'elf@kringle.test');
    const elfId = decodeJwt(elf.idToken).sub!;
    expect((await at(1, '/staff/catalogue', { token: elf.idToken })).status).toBe(200);
    expect(
      (await at(0, `/staff/accounts/${elfId}`, { method: 'PATCH', token: managerToken, body: { role: 'support' } }))
        .status,
    ).toBe(200);
    expect(await refusedAfter(1, elf.idToken)).toBeLessThan(1500);
    expect((await refresh(0, elf.cookie!)).status).toBe(401);
    // Signed in again with the password, the new support member is asked to enrol (403), not refused
    // (on the process that made the change: a role reaches the other's 5 s staff cache within it).
    const again = await passwordSession(0, 'elf@kringle.test');
    expect(await (await at(0, '/staff/families?q=holly', { token: again.idToken })).json()).toMatchObject({
      code: 'MFA_REQUIRED',
    });
    expect(
      (await at(0, `/staff/accounts/${elfId}`, { method: 'PATCH', token: managerToken, body: { role: 'set' } })).status,
    ).toBe(200);
  }, 60_000);

  it(
    `${MFA_LOCK_AFTER} wrong codes in a row, over several mfaTokens and both processes, lock the account: no code ` +
      `(TOTP or recovery) for 15 minutes, the member and the managers are mailed, the trail has it`,
    async () => {
      const staffId = (await db.execute(sql`select id from users where email = 'support@kringle.test'`)).rows[0]!
        .id as string;
      let sent = 0;
      let last: Response | undefined;
      // Two guesses per mfaToken, on alternating processes: no per-token or per-address limit is met.
      while (sent < MFA_LOCK_AFTER) {
        const { mfaToken } = await passwordSession(sent % 2, 'support@kringle.test');
        for (let k = 0; k < 2 && sent < MFA_LOCK_AFTER; k++, sent++) {
          last = await at((sent + k) % 2, '/auth/mfa', { body: { mfaToken, code: String(100000 + sent) } });
          if (sent < MFA_LOCK_AFTER - 1) expect(await last.json()).toMatchObject({ code: 'INVALID_MFA_CODE' });
        }
      }
      expect(last!.status).toBe(429);
      const lockedBody = (await last!.json()) as { code: string; error: string };
      expect(lockedBody.code).toBe('RATE_LIMITED');
      expect(lockedBody.error).toMatch(/15 minutes/);
      expect(Number(last!.headers.get('retry-after'))).toBeGreaterThan(MFA_LOCK_MS / 1000 - 30);

      // The right code, on a fresh mfaToken on the other process, and a recovery-code-shaped one: refused.
      for (const [i, code] of [
        [0, codeNow(supportSecret, 30_000)],
        [1, 'abcde-fghjk'],
      ] as const) {
        const { mfaToken } = await passwordSession(i, 'support@kringle.test');
        const res = await at(1 - i, '/auth/mfa', { body: { mfaToken, code } });
        expect(res.status).toBe(429);
        expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
      }
      const mails = (
        await db.execute(
          sql`select to_address, subject from mail_outbox where subject like '%locked%' order by to_address`,
        )
      ).rows;
      expect(mails.map((m) => m.to_address)).toEqual(['manager@kringle.test', 'support@kringle.test']);
      const entries = await auditOf('staff.mfa_locked', staffId);
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({ actor_kind: 'system', after: { failedCodes: MFA_LOCK_AFTER } });
    },
    60_000,
  );

  it(
    "a manager's reset of the member's factor ends even the sessions that passed it, on both processes, clears the " +
      'lock, and is audited',
    async () => {
      const staffId = (await db.execute(sql`select id from users where email = 'support@kringle.test'`)).rows[0]!
        .id as string;
      const live = await refresh(1, supportCookie);
      expect(live.status).toBe(200);
      const token = ((await live.json()) as { idToken: string }).idToken;
      expect((await at(0, '/staff/families?q=holly', { token })).status).toBe(200);
      expect(
        (await at(1, `/staff/accounts/${staffId}`, { method: 'PATCH', token: managerToken, body: { resetMfa: true } }))
          .status,
      ).toBe(200);
      expect(await refusedAfter(0, token)).toBeLessThan(1500);
      expect((await refresh(0, cookieOf(live)!)).status).toBe(401);
      const [row] = (
        await db.execute(sql`select mfa_failed_count, mfa_locked_until from users where id = ${staffId}::uuid`)
      ).rows;
      expect(row).toMatchObject({ mfa_failed_count: 0, mfa_locked_until: null });
      const managerId = decodeJwt(managerToken).sub!;
      expect(await auditOf('staff.mfa_reset', staffId)).toEqual([
        expect.objectContaining({ actor_kind: 'staff', actor_id: managerId }),
      ]);
    },
    60_000,
  );
});
