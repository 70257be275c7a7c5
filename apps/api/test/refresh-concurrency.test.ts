import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateJwtKey } from '../src/config/secrets';
import { createDb, type Db } from '../src/db/client';
import { refreshTokens } from '../src/db/schema/accounts';
import { STRONG_PASSWORD } from '../src/modules/accounts/accounts.test-support';
import { sha256 } from '../src/modules/accounts/secure-tokens';
import { startApiProcesses, type ApiProcesses } from './support/api-processes';
import { createTestDatabase } from './test-app';

/**
 * Several tabs of one family refresh at the same moment, each request landing on another API
 * process: every one succeeds, one rotation happens, and all end on the same cookie (API.md
 * Additions "Sessions"; decision 0005).
 */
describe('simultaneous refreshes across three API processes', () => {
  let api: ApiProcesses;
  let db: Db;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const url = await createTestDatabase();
    const conn = createDb(url, 5);
    db = conn.db;
    close = () => conn.pool.end();
    api = await startApiProcesses(3, {
      DATABASE_URL: url,
      JWT_PRIVATE_KEY: await generateJwtKey(),
      APP_CHECK_SECRET: 'refresh-concurrency-secret-0123456789abcdef',
      REFRESH_REUSE_GRACE_SECONDS: '20',
    });
  }, 120_000);
  afterAll(async () => {
    await api?.stop();
    await close?.();
  });

  const post = (i: number, path: string, init: { body?: object; cookie?: string } = {}) =>
    fetch(`${api.urls[i % api.urls.length]}/api/v1${path}`, {
      method: 'POST',
      headers: {
        ...(init.body ? { 'content-type': 'application/json' } : {}),
        ...(init.cookie ? { cookie: `kringle_refresh=${init.cookie}` } : {}),
      },
      body: init.body ? JSON.stringify(init.body) : undefined,
    });
  const cookieOf = (res: Response) => /kringle_refresh=([^;]*)/.exec(res.headers.get('set-cookie') ?? '')?.[1];

  async function signedIn(email: string): Promise<string> {
    const reg = await post(0, '/user', { body: { email, password: STRONG_PASSWORD, firstName: 'Holly', lastName: 'Berry' } });
    expect(reg.status).toBe(201);
    const res = await post(1, '/auth/sign-in', { body: { email, password: STRONG_PASSWORD } });
    expect(res.status).toBe(200);
    return cookieOf(res)!;
  }

  it('12 tabs refreshing one token at once, across processes: all 200, one rotation, one cookie', async () => {
    const token = await signedIn('tabs@example.com');
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => post(i, '/auth/refresh', { cookie: token })));
    expect(results.map((r) => r.status)).toEqual(Array(12).fill(200));
    const cookies = new Set(results.map(cookieOf));
    expect(cookies.size).toBe(1);
    const [current] = [...cookies];
    expect(current).not.toBe(token);
    const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256(token)));
    const family = await db.select().from(refreshTokens).where(eq(refreshTokens.familyId, row!.familyId));
    expect(family).toHaveLength(2);
    expect(family.filter((r) => r.rotatedAt === null && r.revokedAt === null).map((r) => r.tokenHash)).toEqual([sha256(current!)]);
    expect((await post(2, '/auth/refresh', { cookie: current })).status).toBe(200);
  });

  it('a grandparent replayed while tabs refresh the current token: the family ends revoked, nothing stays usable', async () => {
    const grandparent = await signedIn('thief@example.com');
    const parent = cookieOf(await post(0, '/auth/refresh', { cookie: grandparent }))!;
    const results = await Promise.all([
      post(1, '/auth/refresh', { cookie: parent }),
      post(2, '/auth/refresh', { cookie: grandparent }),
      post(0, '/auth/refresh', { cookie: parent }),
    ]);
    expect(results[1]!.status).toBe(401);
    const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256(grandparent)));
    const family = await db.select().from(refreshTokens).where(eq(refreshTokens.familyId, row!.familyId));
    expect(family.every((r) => r.revokedAt !== null)).toBe(true);
    for (const res of results) {
      const issued = cookieOf(res);
      if (issued) expect((await post(1, '/auth/refresh', { cookie: issued })).status).toBe(401);
    }
  });
});
