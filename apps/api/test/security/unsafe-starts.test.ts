import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config';
import { generateJwtKey } from '../../src/config/secrets';
import { seedDemoAccounts } from '../../src/modules/accounts/demo-accounts.seed';
import { runServer } from '../../src/server';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** Issue 36, probe cases 6 and 7: production on demo accounts, and the dev mailbox on the network. */

describe('the dev mailbox answers loopback only, even when HOST opens the API', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  for (const url of ['/api/v1/dev/outbox', '/dev/mailbox']) {
    it(`${url}: 200 from this machine, 404 from the network`, async () => {
      expect((await t.app.inject({ url, remoteAddress: '127.0.0.1' })).statusCode).toBe(200);
      expect((await t.app.inject({ url, remoteAddress: '::1' })).statusCode).toBe(200);
      const away = await t.app.inject({ url, remoteAddress: '192.168.1.20' });
      expect(away.statusCode).toBe(404);
      expect(away.json()).toMatchObject({ code: 'NOT_FOUND' });
    });
  }

  it('behind a trusted proxy on this machine, the client must be loopback too', async () => {
    const proxied = await createTestApp({ TRUST_PROXY: 'true' });
    try {
      const via = (client: string) =>
        proxied.app.inject({
          url: '/api/v1/dev/outbox',
          remoteAddress: '127.0.0.1',
          headers: { 'x-forwarded-for': client },
        });
      expect((await via('203.0.113.9')).statusCode).toBe(404);
      expect((await via('127.0.0.1')).statusCode).toBe(200);
    } finally {
      await proxied.close();
    }
  });
});

describe('NODE_ENV=production refuses a database with the demo accounts', () => {
  it('stops with one message naming DATABASE_URL', async () => {
    const t = await createTestApp();
    await seedDemoAccounts(t.db, new Date());
    await t.close();
    const config = loadConfig({
      NODE_ENV: 'production',
      LOG_LEVEL: 'silent',
      PORT: '0',
      DATABASE_URL: t.databaseUrl,
      SMTP_URL: 'smtp://127.0.0.1:9',
      SELLER_ABN: '51 824 753 556',
      VOUCHER_CODE_KEY: 'a-production-voucher-code-key-of-32-chars-or-more',
      STRIPE_SECRET_KEY: 'sk_test_x',
      JOBS_ENABLED: 'false',
      SERVE_WEB: 'false',
    });
    const secrets = { jwtPrivateKeyPem: await generateJwtKey(), appCheckSecret: 'x'.repeat(32) };
    await expect(runServer(config, secrets, t.databaseUrl, { migrationUrl: t.ownerUrl })).rejects.toThrow(
      /^Invalid configuration: DATABASE_URL: this database has the demo accounts \(demo@kringle.test, new@kringle.test, elf@kringle.test, support@kringle.test, manager@kringle.test\)/,
    );
  });
});
