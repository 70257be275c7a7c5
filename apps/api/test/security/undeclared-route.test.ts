import { describe, expect, it } from 'vitest';
import { createCustomer } from '../helpers/customers';
import { createTestApp } from '../helpers/test-app';
import { expectContractError, operations } from './security-fixtures';

/**
 * The default behind access-control.test.ts's inventory: a route that declares no access is a
 * customer route (401 without a token), and only one that says so is public.
 */
describe('a route that declares no access', () => {
  it('is refused without a token (customer by default), and public only when it says so', async () => {
    const t = await createTestApp({}, undefined, async (app) => {
      app.get(
        '/api/v1/test/undeclared',
        { schema: { summary: 'a new route someone forgot to classify' } },
        async () => ({ secret: 'family data' }),
      );
      app.get('/api/v1/test/declared-public', { config: { auth: 'public' } }, async () => ({ open: true }));
    });
    try {
      const refused = await t.app.inject('/api/v1/test/undeclared');
      expectContractError(refused, 401, 'UNAUTHENTICATED');
      expect(refused.body).not.toContain('family data');
      const customer = await createCustomer(t.db, t.app.idTokens);
      expect((await t.app.inject({ url: '/api/v1/test/undeclared', headers: customer.headers })).json()).toEqual({
        secret: 'family data',
      });
      const unverified = await createCustomer(t.db, t.app.idTokens, { verified: false });
      expectContractError(
        await t.app.inject({ url: '/api/v1/test/undeclared', headers: unverified.headers }),
        403,
        'EMAIL_NOT_VERIFIED',
      );
      // The OpenAPI document says so too, which is how the suite above finds token routes.
      const op = (await operations(t.app)).find((o) => o.path === '/api/v1/test/undeclared');
      expect(op?.token).toBe(true);
      expect((await t.app.inject('/api/v1/test/declared-public')).statusCode).toBe(200);
      // Unknown paths stay 404, not 401, and the public routes plugins add stay public.
      expectContractError(await t.app.inject('/api/v1/no-such-thing'), 404, 'NOT_FOUND');
      expect((await t.app.inject('/api/v1/docs')).statusCode).toBeLessThan(400);
      expect(
        (
          await t.app.inject({
            method: 'OPTIONS',
            url: '/api/v1/health',
            headers: { origin: 'http://localhost:5173', 'access-control-request-method': 'GET' },
          })
        ).statusCode,
      ).toBe(204);
      expect((await t.app.inject({ method: 'OPTIONS', url: '/api/v1/health' })).statusCode).not.toBe(401);
    } finally {
      await t.close();
    }
  });
});
