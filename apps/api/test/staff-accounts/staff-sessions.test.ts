import { decodeJwt } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { DEMO_PASSWORD, seedDemoAccounts } from '../../src/modules/accounts/demo-accounts.seed';
import { REFRESH_COOKIE } from '../../src/modules/accounts/refresh-cookie';
import { startSessionCutoffsListener } from '../../src/modules/accounts/session-cutoffs.listener';
import { demoSeason } from '../../src/modules/catalogue/demo-season';
import { loadSeason } from '../../src/modules/catalogue/season.service';
import { expectContractError } from '../security/security-fixtures';
import { bearer, cookieOf, enrol, signIn } from '../helpers/staff-people';
import { createTestApp, type TestApp } from '../helpers/test-app';

/**
 * Issue 34's staff sessions (decisions 0050 and 0063): a deactivation and sign out everywhere end them at once, on
 * another API instance too; idle and absolute time limits. The accounts themselves: staff-accounts.test.ts.
 */
describe('staff accounts', () => {
  let t: TestApp;
  let manager: string;
  let sydney: string;

  beforeAll(async () => {
    t = await createTestApp();
    await loadSeason(t.db, demoSeason(t.clock.now(), { days: 3 }), t.clock.now());
    await seedDemoAccounts(t.db, t.clock.now());
    ({ idToken: manager } = await enrol(t.app, t.clock, 'manager@kringle.test', DEMO_PASSWORD));
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

  it('deactivates at once: the next request, the refresh cookie and the password are all refused', async () => {
    const elf = await signIn(t.app, 'elf@kringle.test', DEMO_PASSWORD);
    const elfToken = elf.json().idToken as string;
    const cookie = cookieOf(elf)!;
    const id = decodeJwt(elfToken).sub!;
    expect((await call('GET', '/staff/catalogue', elfToken)).statusCode).toBe(200);
    expect((await call('PATCH', `/staff/accounts/${id}`, manager, { active: false })).json()).toMatchObject({
      active: false,
    });
    expectContractError(await call('GET', '/staff/catalogue', elfToken), 401, 'UNAUTHENTICATED');
    expectContractError(
      await t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', cookies: { [REFRESH_COOKIE]: cookie } }),
      401,
      'UNAUTHENTICATED',
    );
    expectContractError(await signIn(t.app, 'elf@kringle.test', DEMO_PASSWORD), 401, 'INVALID_CREDENTIALS');
    await call('PATCH', `/staff/accounts/${id}`, manager, { active: true });
    expect((await signIn(t.app, 'elf@kringle.test', DEMO_PASSWORD)).statusCode).toBe(200);
  });

  it(
    "signs a member out everywhere at once: the other devices' ID tokens and refresh cookies are refused; a new " +
      'sign-in works',
    async () => {
      const [phone, laptop] = [
        await signIn(t.app, 'elf@kringle.test', DEMO_PASSWORD),
        await signIn(t.app, 'elf@kringle.test', DEMO_PASSWORD),
      ];
      const phoneToken = phone.json().idToken as string;
      expect((await call('GET', `/staff/run-sheet?locationId=${sydney}`, phoneToken)).statusCode).toBe(200);
      t.clock.advance(2000);
      const out = await call('POST', '/staff/sign-out-everywhere', laptop.json().idToken as string, {});
      expect(out.statusCode).toBe(204);
      expect(String(out.headers['set-cookie'])).toContain(`${REFRESH_COOKIE}=;`);
      // The phone's token still has 15 minutes on it, and is refused all the same (its session epoch is behind,
      // decision 0063).
      expectContractError(
        await call('GET', `/staff/run-sheet?locationId=${sydney}`, phoneToken),
        401,
        'UNAUTHENTICATED',
      );
      for (const device of [phone, laptop]) {
        expectContractError(
          await t.app.inject({
            method: 'POST',
            url: '/api/v1/auth/refresh',
            cookies: { [REFRESH_COOKIE]: cookieOf(device)! },
          }),
          401,
          'UNAUTHENTICATED',
        );
      }
      const again = await signIn(t.app, 'elf@kringle.test', DEMO_PASSWORD);
      expect(
        (await call('GET', `/staff/run-sheet?locationId=${sydney}`, again.json().idToken as string)).statusCode,
      ).toBe(200);
      // Only staff accounts: a family signs out everywhere through /auth/sign-out-everywhere.
      expectContractError(await call('POST', '/staff/sign-out-everywhere', null, {}), 401, 'UNAUTHENTICATED');
    },
  );

  it(
    'deactivates at once on another API instance too: its cached staff state does not outlive the session epoch ' +
      '(decision 0063)',
    async () => {
      const other = await createTestApp({}, t.clock, undefined, { databaseUrl: t.databaseUrl });
      const listener = startSessionCutoffsListener({
        cutoffs: other.app.sessionCutoffs,
        db: other.db,
        clock: t.clock,
        log: other.app.log,
        databaseUrl: t.databaseUrl,
      });
      await listener.ready;
      try {
        const elfToken = (await signIn(t.app, 'elf@kringle.test', DEMO_PASSWORD)).json().idToken as string;
        const id = decodeJwt(elfToken).sub!;
        const there = () => other.app.inject({ url: '/api/v1/staff/catalogue', headers: bearer(elfToken) });
        // The other instance now trusts the account as active for STAFF_STATE_CACHE_MS (5 s).
        expect((await there()).statusCode).toBe(200);
        expect((await call('PATCH', `/staff/accounts/${id}`, manager, { active: false })).statusCode).toBe(200);
        const started = Date.now();
        while ((await there()).statusCode === 200 && Date.now() - started < 5000)
          await new Promise((r) => setTimeout(r, 25));
        expect(Date.now() - started).toBeLessThan(1500);
        expectContractError(await there(), 401, 'UNAUTHENTICATED');
        await call('PATCH', `/staff/accounts/${id}`, manager, { active: true });
      } finally {
        await listener.stop();
        await other.app.close();
        await other.pool.end();
      }
    },
  );

  it('ends an idle staff session after 30 minutes without a refresh, and any after 12 hours', async () => {
    const refresh = (cookie: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/auth/refresh', cookies: { [REFRESH_COOKIE]: cookie } });
    let cookie = cookieOf(await signIn(t.app, 'elf@kringle.test', DEMO_PASSWORD))!;
    t.clock.advance(31 * 60_000);
    expectContractError(await refresh(cookie), 401, 'UNAUTHENTICATED');
    cookie = cookieOf(await signIn(t.app, 'elf@kringle.test', DEMO_PASSWORD))!;
    for (let i = 0; i < 25; i++) {
      t.clock.advance(29 * 60_000);
      const res = await refresh(cookie);
      if (i < 24) {
        expect(res.statusCode, `after ${(i + 1) * 29} minutes`).toBe(200);
        cookie = cookieOf(res)!;
      } else expectContractError(res, 401, 'UNAUTHENTICATED');
    }
  });
});
