import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectContractError } from '../security/security-fixtures';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { createPerson, headersOf } from './staff-fixtures';

/** Issue 34: the support desk searches as staff type, so each member is limited (decision 0051: 60 a minute). */
describe('support search rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ RATE_LIMIT_MODE: 'on' });
  });
  afterAll(async () => t?.close());

  it(
    'limits each staff member to 60 searches a minute (429 with Retry-After); another member still searches, and ' +
      'the window ends',
    async () => {
      const [busy, calm] = [
        await createPerson(t.db, true, undefined, { role: 'support', mfaEnrolled: true }),
        await createPerson(t.db, true, undefined, { role: 'support', mfaEnrolled: true }),
      ];
      const search = async (who: typeof busy, q: string) =>
        t.app.inject({ url: `/api/v1/staff/families?q=${q}`, headers: await headersOf(t.app.idTokens, who) });
      for (let i = 0; i < 60; i++) expect((await search(busy, `zz${i}`)).statusCode).toBe(200);
      const limited = await search(busy, 'zz60');
      expectContractError(limited, 429, 'RATE_LIMITED');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect((await search(calm, 'zz60')).statusCode).toBe(200);
      t.clock.advance(61_000);
      expect((await search(busy, 'zz61')).statusCode).toBe(200);
    },
  );
});
