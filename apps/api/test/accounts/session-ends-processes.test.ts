import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import { STRONG_PASSWORD } from '../helpers/accounts';
import { startApiProcesses, type ApiProcesses } from '../helpers/api-processes';
import { createProcessesDatabase } from '../helpers/processes-database';

/**
 * Issue 38 (decision 0063): an ID token issued before its account's sessions ended is refused on
 * every API process within about a second, with no query per request (each process mirrors the
 * ends by LISTEN/NOTIFY), and that account's live streams on the other process end too.
 */
describe('sessions ended on one API process end on the other at once', () => {
  let api: ApiProcesses;
  let db: Db;
  let close: () => Promise<void>;
  let locationId: string;

  beforeAll(async () => {
    const conn = await createProcessesDatabase({ poolSize: 2, season: { days: 3 } });
    ({ db, close } = conn);
    locationId = (await db.execute(sql`select id from locations order by sort_order limit 1`)).rows[0]!.id as string;
    api = await startApiProcesses(2, { ...conn.env, JOBS_ENABLED: 'false' });
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await close?.();
  });

  const json = { 'content-type': 'application/json' };
  const at = (i: number, path: string, init: { method?: string; token?: string; body?: unknown } = {}) =>
    fetch(`${api.urls[i]}/api/v1${path}`, {
      method: init.method ?? 'GET',
      headers: { ...(init.token ? { authorization: `Bearer ${init.token}` } : {}), ...(init.body ? json : {}) },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });

  async function family(email: string) {
    expect(
      (
        await at(0, '/user', {
          method: 'POST',
          body: { email, password: STRONG_PASSWORD, firstName: 'Holly', lastName: 'Ivy' },
        })
      ).status,
    ).toBe(201);
    await db.execute(sql`update users set email_verified_at = now() where email = ${email}`);
    return signIn(1, email);
  }
  async function signIn(i: number, email: string, password = STRONG_PASSWORD) {
    const res = await at(i, '/auth/sign-in', { method: 'POST', body: { email, password } });
    expect(res.status).toBe(200);
    return ((await res.json()) as { idToken: string }).idToken;
  }

  /** Opens the live stream on process `i` and resolves with the ms it took the server to end it (or null). */
  async function streamEnds(i: number, token: string) {
    const res = await at(i, `/booking-slot/${locationId}/live`, { token });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read();
    return {
      ended: async (withinMs: number) => {
        const timeout = new Promise<false>((resolve) => setTimeout(() => resolve(false), withinMs));
        const done = (async () => {
          for (;;) if ((await reader.read()).done) return true;
        })().catch(() => true);
        const result = await Promise.race([done, timeout]);
        await reader.cancel().catch(() => {});
        return result;
      },
    };
  }

  /** Asks process `i` every 50 ms until the token is refused: the ms it took, or fails after 5 s. */
  async function refusedAfter(i: number, token: string, path = '/user/me') {
    const started = Date.now();
    while (Date.now() - started < 5000) {
      const res = await at(i, path, { token });
      if (res.status === 401) {
        expect(await res.json()).toMatchObject({ code: 'UNAUTHENTICATED' });
        return Date.now() - started;
      }
      expect(res.status).toBe(200);
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`process ${i} still accepts the token after 5 s`);
  }

  it(
    'sign out everywhere on process 0: the token is refused by process 1 within a second, and its live stream there ' +
      'ends',
    async () => {
      const token = await family('everywhere@example.com');
      // Process 1 has verified (and cached) the token: the refusal must not wait for its expiry.
      expect((await at(1, '/user/me', { token })).status).toBe(200);
      expect(
        (
          await at(1, `/booking-slot/${locationId}/available-slots?date=${new Date().toISOString().slice(0, 10)}`, {
            token,
          })
        ).status,
      ).not.toBe(401);
      const stream = await streamEnds(1, token);
      expect((await at(0, '/auth/sign-out-everywhere', { method: 'POST', token })).status).toBe(204);
      expect(await refusedAfter(1, token)).toBeLessThan(1500);
      expect(await stream.ended(1500)).toBe(true);
      expect((await at(1, `/booking-slot/${locationId}/live`, { token })).status).toBe(401);
      // A new sign-in works on both.
      const fresh = await signIn(1, 'everywhere@example.com');
      expect((await at(0, '/user/me', { token: fresh })).status).toBe(200);
      expect((await at(1, '/user/me', { token: fresh })).status).toBe(200);
    },
    60_000,
  );

  it(
    'an account deleted on process 0: its tokens are refused by process 1 within a second, its streams ' + 'end',
    async () => {
      const token = await family('deleted@example.com');
      const other = await signIn(0, 'deleted@example.com');
      expect((await at(1, '/user/me', { token: other })).status).toBe(200);
      const stream = await streamEnds(1, token);
      const del = await at(0, '/user', {
        method: 'DELETE',
        token,
        body: { password: STRONG_PASSWORD, confirmEmail: 'deleted@example.com' },
      });
      expect(del.status).toBe(202);
      expect(await refusedAfter(1, other)).toBeLessThan(1500);
      expect((await at(1, '/user/me', { token })).status).toBe(401);
      expect(await stream.ended(1500)).toBe(true);
    },
    60_000,
  );

  it(
    'a password changed on process 0: older tokens are refused by process 1; the new session works on ' + 'both',
    async () => {
      const token = await family('changed@example.com');
      expect((await at(1, '/user/me', { token })).status).toBe(200);
      const newPassword = `${STRONG_PASSWORD}-new`;
      const changed = await at(0, '/user/me/password', {
        method: 'POST',
        token,
        body: { currentPassword: STRONG_PASSWORD, newPassword },
      });
      expect(changed.status).toBe(200);
      const fresh = ((await changed.json()) as { idToken: string }).idToken;
      expect(await refusedAfter(1, token)).toBeLessThan(1500);
      expect((await at(0, '/user/me', { token: fresh })).status).toBe(200);
      expect((await at(1, '/user/me', { token: fresh })).status).toBe(200);
    },
    60_000,
  );

  it('while process 1 is not listening, an end reaches it anyway (the reload at reconnect, the poll)', async () => {
    const token = await family('unheard@example.com');
    expect((await at(1, '/user/me', { token })).status).toBe(200);
    // Both processes lose their listening connection; the end is NOTIFY'd while they cannot hear.
    await db.execute(
      sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'kringle-api-session-ends'`,
    );
    expect((await at(0, '/auth/sign-out-everywhere', { method: 'POST', token })).status).toBe(204);
    expect(await refusedAfter(1, token)).toBeLessThan(4000);
  }, 60_000);
});
