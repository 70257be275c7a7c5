import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../src/db/client';
import { refreshTokens } from '../../src/db/schema/accounts';
import { REFRESH_COOKIE } from '../../src/modules/accounts/refresh-cookie';
import { STRONG_PASSWORD } from '../helpers/accounts';
import { startApiProcesses, type ApiProcesses } from '../helpers/api-processes';
import { createProcessesDatabase } from '../helpers/processes-database';

/**
 * Several tabs refreshing with one cookie at once, each answered by a different API process
 * (API.md "Additions" → "Sessions"): all succeed and converge on the family's one current token.
 */
describe('refresh reuse grace, three API processes', () => {
  let api: ApiProcesses;
  let db: Db;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const conn = await createProcessesDatabase({ poolSize: 2 });
    ({ db, close } = conn);
    api = await startApiProcesses(3, { ...conn.env, JOBS_ENABLED: 'false' });
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await close?.();
  });

  const cookieOf = (res: Response) => {
    const header = res.headers.getSetCookie().find((c) => c.startsWith(`${REFRESH_COOKIE}=`));
    return header?.slice(REFRESH_COOKIE.length + 1).split(';')[0];
  };
  const refreshAt = (i: number, token: string) =>
    fetch(`${api.urls[i]}/api/v1/auth/refresh`, { method: 'POST', headers: { cookie: `${REFRESH_COOKIE}=${token}` } });

  it('simultaneous refreshes of one token on three processes all get 200 and one current token', async () => {
    const email = 'three-tabs@example.com';
    const json = { 'content-type': 'application/json' };
    const reg = await fetch(`${api.urls[0]}/api/v1/user`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email, password: STRONG_PASSWORD, firstName: 'mary', lastName: 'christmas' }),
    });
    expect(reg.status).toBe(201);
    for (let round = 0; round < 5; round++) {
      const signIn = await fetch(`${api.urls[1]}/api/v1/auth/sign-in`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ email, password: STRONG_PASSWORD }),
      });
      expect(signIn.status).toBe(200);
      const token = cookieOf(signIn)!;
      const results = await Promise.all([0, 1, 2].map((i) => refreshAt(i, token)));
      expect(results.map((r) => r.status)).toEqual([200, 200, 200]);
      const bodies = (await Promise.all(results.map((r) => r.json()))) as {
        idToken: string;
        user: { email: string };
      }[];
      expect(bodies.every((b) => b.idToken && b.user.email === email)).toBe(true);
      const cookies = new Set(results.map(cookieOf));
      expect(cookies.size).toBe(1);
      const [current] = [...cookies];
      expect(current).toBeTruthy();
      expect(current).not.toBe(token);
      // The converged token is the family's live one: it rotates again.
      expect((await refreshAt(round % 3, current!)).status).toBe(200);
    }
    const rows = await db.select().from(refreshTokens);
    // Five families of three tokens each (sign-in, the one rotation, the rotation after it): nothing revoked.
    expect(rows).toHaveLength(15);
    expect(rows.every((r) => r.revokedAt === null)).toBe(true);
  }, 60_000);
});
