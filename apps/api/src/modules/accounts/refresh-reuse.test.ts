import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { refreshTokens } from '../../db/schema/accounts';
import { createSignedInUser, refresh, refreshCookieOf } from './accounts.test-support';
import { REFRESH_COOKIE } from './refresh-cookie';
import { sha256 } from './secure-tokens';

/** API.md Additions "Sessions": the reuse grace for several tabs and lost answers (decision 0005). */
describe('refresh reuse grace', () => {
  let t: TestApp;
  let noGrace: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ REFRESH_REUSE_GRACE_SECONDS: '20' });
    noGrace = await createTestApp({ REFRESH_REUSE_GRACE_SECONDS: '0' });
  });
  afterAll(async () => {
    await t.close();
    await noGrace.close();
  });

  const familyRows = async (app: TestApp, token: string) => {
    const [row] = await app.db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, sha256(token)));
    return app.db.select().from(refreshTokens).where(eq(refreshTokens.familyId, row!.familyId));
  };

  it('answers a retried refresh (its answer lost) with a new ID token and the current cookie', async () => {
    const u = await createSignedInUser(t.app, t.db, 'lost@example.com');
    const first = await refresh(t.app, u.refreshToken);
    const current = refreshCookieOf(first)!;
    t.clock.advance(19_000);
    const retried = await refresh(t.app, u.refreshToken);
    expect(retried.statusCode).toBe(200);
    expect(retried.json()).toMatchObject({ idToken: expect.any(String), user: { email: 'lost@example.com' } });
    expect(refreshCookieOf(retried)).toBe(current);
    // No second rotation: the family is the sign-in token and its one successor, both alive.
    const rows = await familyRows(t, current);
    expect(rows).toHaveLength(2);
    expect(rows.every((r) => r.revokedAt === null)).toBe(true);
    expect((await refresh(t.app, current)).statusCode).toBe(200);
  });

  it('stores the successor only sealed: the database alone does not yield the current token', async () => {
    const u = await createSignedInUser(t.app, t.db, 'sealed@example.com');
    const current = refreshCookieOf(await refresh(t.app, u.refreshToken))!;
    const rows = await familyRows(t, current);
    const rotated = rows.find((r) => r.rotatedAt)!;
    expect(rotated.successorSealed).toBeTruthy();
    expect(JSON.stringify(rows)).not.toContain(current);
    expect(rotated.replacedBy).toBe(rows.find((r) => !r.rotatedAt)!.id);
  });

  it('treats a grandparent as theft even within the grace: 401 and the whole family revoked', async () => {
    const u = await createSignedInUser(t.app, t.db, 'grandparent@example.com');
    const parent = refreshCookieOf(await refresh(t.app, u.refreshToken))!;
    const child = refreshCookieOf(await refresh(t.app, parent))!;
    const replay = await refresh(t.app, u.refreshToken);
    expect(replay.statusCode).toBe(401);
    expect(replay.json().code).toBe('UNAUTHENTICATED');
    expect(replay.cookies.find((c) => c.name === REFRESH_COOKIE)?.value).toBe('');
    expect((await refresh(t.app, child)).statusCode).toBe(401);
    expect((await familyRows(t, child)).every((r) => r.revokedAt !== null)).toBe(true);
  });

  it('treats the predecessor after the grace as theft', async () => {
    const u = await createSignedInUser(t.app, t.db, 'late@example.com');
    const current = refreshCookieOf(await refresh(t.app, u.refreshToken))!;
    t.clock.advance(20_001);
    expect((await refresh(t.app, u.refreshToken)).statusCode).toBe(401);
    expect((await refresh(t.app, current)).statusCode).toBe(401);
  });

  it('gives nothing back after sign-out, within the grace too', async () => {
    const u = await createSignedInUser(t.app, t.db, 'signed-out@example.com');
    const current = refreshCookieOf(await refresh(t.app, u.refreshToken))!;
    await t.app.inject({ method: 'POST', url: '/api/v1/auth/sign-out', cookies: { [REFRESH_COOKIE]: current } });
    expect((await refresh(t.app, u.refreshToken)).statusCode).toBe(401);
  });

  it('with REFRESH_REUSE_GRACE_SECONDS=0, any second use is theft at once', async () => {
    const u = await createSignedInUser(noGrace.app, noGrace.db, 'strict@example.com');
    const current = refreshCookieOf(await refresh(noGrace.app, u.refreshToken))!;
    expect((await refresh(noGrace.app, u.refreshToken)).statusCode).toBe(401);
    expect((await refresh(noGrace.app, current)).statusCode).toBe(401);
  });
});
