import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { register, signIn } from '../helpers/accounts';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** ASVS 14.4 (headers), 14.5.3 (CORS), 3.4 (cookie attributes), 8.2.1 (no caching of API answers). */

function cspOf(res: LightMyRequestResponse): Record<string, string> {
  const header = String(res.headers['content-security-policy'] ?? '');
  return Object.fromEntries(
    header
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => [d.split(/\s+/)[0]!, d.split(/\s+/).slice(1).join(' ')]),
  );
}

/** A page (the web app) gets helmet's full set; an API answer is data, never a document (decision 0035). */
function expectSecurityHeaders(res: LightMyRequestResponse, kind: 'page' | 'api') {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toMatch(/^(no-referrer|strict-origin-when-cross-origin|same-origin)$/);
  expect(res.headers['x-frame-options']).toBe(kind === 'api' ? 'DENY' : 'SAMEORIGIN');
  expect(res.headers['x-powered-by']).toBeUndefined();
  expect(res.headers.server).toBeUndefined();
  const csp = cspOf(res);
  if (kind === 'api') {
    expect(csp).toEqual({ 'default-src': "'none'", 'frame-ancestors': "'none'" });
    expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
    return;
  }
  expect(csp['frame-ancestors']).toMatch(/^'(self|none)'$/);
  expect(csp['object-src'] ?? csp['default-src']).toMatch(/'none'|'self'/);
  expect(csp['script-src'] ?? csp['default-src']).not.toMatch(/'unsafe-inline'|'unsafe-eval'|\*(?!\.)/);
  expect(csp['base-uri'] ?? '').not.toBe('*');
  expect(permissionsOf(res), 'permissions-policy').toMatchObject({
    camera: '()',
    microphone: '()',
    geolocation: '()',
    payment: '(self "https://js.stripe.com")',
  });
}

function permissionsOf(res: LightMyRequestResponse): Record<string, string> {
  const header = String(res.headers['permissions-policy'] ?? '');
  return Object.fromEntries(
    header
      .split(',')
      .filter((d) => d.includes('='))
      .map((d) => d.trim().split('=', 2) as [string, string]),
  );
}

describe('security headers, CORS and the refresh cookie', () => {
  let t: TestApp;
  let dist: string;
  beforeAll(async () => {
    // A stand-in web build, so the web responses are checked without building the web app here.
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'kringle-sec-web-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>Kringle</title><div id="root"></div>');
    fs.writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    fs.writeFileSync(
      path.join(dist, 'logo.png'),
      fs.readFileSync(new URL('../../../web/public/logo.png', import.meta.url)),
    );
    t = await createTestApp({ SERVE_WEB: 'true', WEB_DIST_DIR: dist });
    await register(t.app, 'cookie@example.com');
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it('sends the security headers on API answers, errors included, and keeps them out of caches', async () => {
    const answers = [
      await t.app.inject('/api/v1/health'),
      await t.app.inject('/api/v1/user/me'),
      await t.app.inject('/api/v1/no-such-route'),
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/sign-in',
        payload: '{bad',
        headers: { 'content-type': 'application/json' },
      }),
      await signIn(t.app, 'cookie@example.com'),
    ];
    for (const res of answers) {
      expectSecurityHeaders(res, 'api');
      expect(res.headers['cache-control']).toBe('no-store');
    }
  });

  it('sends the security headers on the web app: the page, a deep link and an asset', async () => {
    for (const url of ['/', '/login', '/bookings/anything', '/assets/app-abc123.js']) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expectSecurityHeaders(res, 'page');
    }
    const page = await t.app.inject('/login');
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(cspOf(page)['default-src']).toBe("'self'");
    for (const url of ['/', '/assets/app-abc123.js'])
      expect((await t.app.inject(url)).headers['cross-origin-resource-policy'], url).toBe('same-origin');
  });

  it("lets webmail show the e-mails' logo from its own origin, and nothing else", async () => {
    const logo = await t.app.inject('/logo.png');
    expect(logo.statusCode).toBe(200);
    expect(logo.headers['content-type']).toBe('image/png');
    expect(logo.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expectSecurityHeaders(logo, 'page');
    expect((await t.app.inject('/logo.png?x=1')).headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('answers URLs refused before routing with the contract body and the essential headers', async () => {
    const res = await t.app.inject('/api/v1/bookings/%E0%A4%A');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: 'That address is not valid.', code: 'BAD_REQUEST' });
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expectSecurityHeaders(res, 'api');
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('allows the camera only on the staff scanner path /staff (Permissions-Policy), nowhere else', async () => {
    for (const url of ['/staff', '/staff/scan', '/staff?booking=1']) {
      const res = await t.app.inject(url);
      expect(permissionsOf(res).camera, url).toBe('(self)');
      expect(permissionsOf(res).microphone, url).toBe('()');
    }
    for (const url of ['/', '/staffing', '/login?next=/staff', '/assets/app-abc123.js']) {
      expect(permissionsOf(await t.app.inject(url)).camera, url).toBe('()');
    }
    // API answers are never documents, so no policy for browser features applies to them.
    for (const url of ['/api/v1/health', '/api/v1/staff'])
      expect((await t.app.inject(url)).headers['permissions-policy'], url).toBeUndefined();
  });

  it(
    'sends HSTS in production only (plain http stays usable locally), no loopback sources in its CSP and no dev ' +
      'mailbox',
    async () => {
      expect((await t.app.inject('/api/v1/health')).headers['strict-transport-security']).toBeUndefined();
      const prod = await createTestApp({
        NODE_ENV: 'production',
        SMTP_URL: 'smtp://mail.example.com:587',
        SELLER_ABN: '51 824 753 556',
        VOUCHER_CODE_KEY: 'a-production-voucher-code-key-of-32-chars-or-more',
        STRIPE_SECRET_KEY: 'sk_test_x',
      });
      try {
        const hsts = String((await prod.app.inject('/api/v1/health')).headers['strict-transport-security']);
        expect(Number(/max-age=(\d+)/.exec(hsts)?.[1])).toBeGreaterThanOrEqual(15_552_000); // 180 days
        expect(hsts).toContain('includeSubDomains');
        // The sandbox's loopback sources are for development only.
        expect(String((await prod.app.inject('/api/v1/health')).headers['content-security-policy'])).not.toMatch(
          /localhost|127\.0\.0\.1/,
        );
        // Nor does production serve the development mailbox (it would show everyone's reset links).
        for (const url of ['/api/v1/dev/outbox?to=a@example.com', '/dev/mailbox']) {
          expect((await prod.app.inject(url)).statusCode, url).toBe(404);
        }
        expect((await t.app.inject('/api/v1/dev/outbox?to=a@example.com')).statusCode).toBe(200);
      } finally {
        await prod.close();
      }
    },
  );

  it('allows CORS for the configured app origins only, with credentials', async () => {
    const preflight = (origin: string) =>
      t.app.inject({
        method: 'OPTIONS',
        url: '/api/v1/auth/refresh',
        headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
    const good = await preflight('http://localhost:5173');
    expect(good.headers['access-control-allow-origin']).toBe('http://localhost:5173');
    expect(good.headers['access-control-allow-credentials']).toBe('true');
    for (const origin of [
      'https://evil.example',
      'http://localhost:5173.evil.example',
      'null',
      'http://localhost:5174',
      'https://localhost:5173',
    ]) {
      const res = await preflight(origin);
      expect(res.headers['access-control-allow-origin'], origin).toBeUndefined();
      const simple = await t.app.inject({ url: '/api/v1/health', headers: { origin } });
      expect(simple.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
    // Without an Origin there is no CORS answer at all (Vary: Origin stays, for caches).
    const sameOrigin = await t.app.inject({ url: '/api/v1/health' });
    expect(Object.keys(sameOrigin.headers).filter((h) => h.startsWith('access-control-'))).toEqual([]);
    expect(sameOrigin.headers.vary).toContain('Origin');
    // Never a wildcard together with credentials.
    expect(
      (await t.app.inject({ url: '/api/v1/health', headers: { origin: 'http://localhost:3000' } })).headers[
        'access-control-allow-origin'
      ],
    ).toBe('http://localhost:3000');
  });

  it('sets the refresh cookie HttpOnly, SameSite=Strict, Path=/api/v1/auth, and Secure off localhost', async () => {
    const local = await signIn(t.app, 'cookie@example.com');
    const raw = String(local.headers['set-cookie']);
    expect(raw).toMatch(/^kringle_refresh=[\w-]{43};/);
    expect(raw).toMatch(/; HttpOnly/i);
    expect(raw).toMatch(/; SameSite=Strict/i);
    expect(raw).toMatch(/; Path=\/api\/v1\/auth(;|$)/);
    expect(raw).not.toMatch(/; Domain=/i);
    const remote = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sign-in',
      headers: { host: 'photos.kringle.example' },
      payload: { email: 'cookie@example.com', password: 'Sleigh-Bells-Ring-42' },
    });
    expect(String(remote.headers['set-cookie'])).toMatch(/; Secure/i);
    // Clearing keeps the same attributes, or the browser would keep the old cookie.
    const cleared = await t.app.inject({
      method: 'POST',
      url: '/api/v1/auth/sign-out',
      headers: { host: 'photos.kringle.example' },
      cookies: { kringle_refresh: 'x' },
    });
    const clearedRaw = String(cleared.headers['set-cookie']);
    expect(clearedRaw).toMatch(/^kringle_refresh=;/);
    expect(clearedRaw).toMatch(/; Path=\/api\/v1\/auth/);
    expect(clearedRaw).toMatch(/; HttpOnly/i);
    expect(clearedRaw).toMatch(/; Secure/i);
    expect(clearedRaw).toMatch(/; SameSite=Strict/i);
  });
});
