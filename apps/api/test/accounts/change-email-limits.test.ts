import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/accounts';
import { rateLimitCounters } from '../../src/db/schema/platform';
import { VERIFY_MAIL_LIMITS } from '../../src/modules/accounts/account-limits';
import { bucketKey } from '../../src/plugins/rate-limit';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { APP_ORIGIN, bearer, createSignedInUser, outboxFor, STRONG_PASSWORD } from '../helpers/accounts';

/** PUT /user/me/email (decision 0068) against the verification mail limits, with the rate limits on. */
describe('changing the address counts against the verification mail limits', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MODE: 'on' });
  });
  afterAll(async () => t.close());

  const changeTo = (idToken: string, email: string) =>
    t.app.inject({
      method: 'PUT',
      url: '/api/v1/user/me/email',
      payload: { email, password: STRONG_PASSWORD, redirectUrl: APP_ORIGIN },
      headers: bearer(idToken),
    });
  const countOf = async (key: string) =>
    (await t.db.select().from(rateLimitCounters).where(eq(rateLimitCounters.key, key)))[0]?.count ?? 0;

  it("shares the account's daily count with re-sends, and stops at it with nothing changed", async () => {
    const u = await createSignedInUser(t.app, t.db, 'limited@exmaple.com');
    expect(
      (
        await t.app.inject({
          method: 'POST',
          url: '/api/v1/user/auth/email-verification',
          payload: { redirectUrl: APP_ORIGIN },
          headers: bearer(u.idToken),
        })
      ).statusCode,
    ).toBe(200);
    expect((await changeTo(u.idToken, 'limited@example.com')).statusCode).toBe(200);
    const key = bucketKey('verify-mail:user-day', u.id);
    expect(await countOf(key)).toBe(2);

    await t.db
      .update(rateLimitCounters)
      .set({ count: VERIFY_MAIL_LIMITS.perUser })
      .where(eq(rateLimitCounters.key, key));
    const limited = await changeTo(u.idToken, 'limited-again@example.com');
    expect(limited.statusCode).toBe(429);
    expect(limited.json().code).toBe('RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect((await t.db.select().from(users).where(eq(users.id, u.id)))[0]!.email).toBe('limited@example.com');
    expect(await outboxFor(t.db, 'limited-again@example.com')).toHaveLength(0);
  });

  it('sends one address at most 5 changes an hour, whichever accounts ask', async () => {
    const codes: number[] = [];
    for (let i = 0; i < 6; i++) {
      const u = await createSignedInUser(t.app, t.db, `spray${i}@exmaple.com`);
      codes.push((await changeTo(u.idToken, 'victim@example.com')).statusCode);
      // Free the address again for the next account, so only the per-address count can refuse.
      await t.db
        .update(users)
        .set({ email: `spray${i}@elsewhere.example` })
        .where(eq(users.id, u.id));
    }
    expect(codes).toEqual([200, 200, 200, 200, 200, 429]);
  });
});
