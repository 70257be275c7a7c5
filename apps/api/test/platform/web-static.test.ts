import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';

/** The web app as the API serves it: precompressed assets and per-route modulepreload hints (issue 7 budgets). */
describe('serving the built web app', () => {
  let t: TestApp;
  let dist: string;
  const script = `console.log(${JSON.stringify('x'.repeat(2000))});`;
  beforeAll(async () => {
    // A stand-in web build, shaped like apps/web's (vite.config.ts precompress and route-preloads).
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'kringle-web-static-'));
    fs.mkdirSync(path.join(dist, 'assets'));
    fs.mkdirSync(path.join(dist, '.vite'));
    fs.writeFileSync(
      path.join(dist, 'index.html'),
      '<!doctype html><html><head><title>Kringle</title></head><body><div id="root"></div></body></html>',
    );
    fs.writeFileSync(
      path.join(dist, 'staff.html'),
      '<!doctype html><html><head><title>Staff</title></head><body><div id="root"></div></body></html>',
    );
    fs.writeFileSync(path.join(dist, 'assets', 'login-page-abc.js'), script);
    fs.writeFileSync(path.join(dist, 'assets', 'login-page-abc.js.br'), brotliCompressSync(script));
    // What a build with public source maps leaves (apps/web keeps them out of dist/ now).
    fs.writeFileSync(
      path.join(dist, 'assets', 'login-page-abc.js.map'),
      '{"version":3,"sourcesContent":["secret source"]}',
    );
    fs.writeFileSync(path.join(dist, 'index.js.map'), '{"version":3}');
    fs.writeFileSync(
      path.join(dist, '.vite', 'route-preloads.json'),
      JSON.stringify({ '/login': ['/assets/login-page-abc.js', '"><script>alert(1)</script>'] }),
    );
    t = await createTestApp({ SERVE_WEB: 'true', WEB_DIST_DIR: dist });
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dist, { recursive: true, force: true });
  });

  it("hints the requested route's chunks in index.html, and only well-formed asset paths", async () => {
    for (const url of ['/login', '/login?next=1', '/login/']) {
      const page = await t.app.inject(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.headers['cache-control']).toBe('no-cache');
      // With its Subresource Integrity (decision 0098).
      expect(page.body, url).toMatch(
        /<link rel="modulepreload" crossorigin href="\/assets\/login-page-abc\.js" integrity="sha384-[A-Za-z0-9+/]+={0,2}"><\/head>/,
      );
      expect(page.body).not.toContain('<script>');
    }
    for (const url of ['/', '/register', '/no/such/page']) {
      const page = await t.app.inject(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).not.toContain('modulepreload');
    }
  });

  it('serves the staff app (its own entry) at /staff and below, and the customer app everywhere else', async () => {
    for (const url of ['/staff', '/staff/', '/staff/check-in', '/staff/walk-in?x=1']) {
      const page = await t.app.inject(url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain('<title>Staff</title>');
      // The camera is allowed here only (plugins/security.ts).
      expect(page.headers['permissions-policy'], url).toMatch(/camera=\(self\)/);
    }
    for (const url of ['/staffing', '/bookings', '/']) {
      const page = await t.app.inject(url);
      expect(page.body, url).toContain('<title>Kringle</title>');
      expect(page.headers['permissions-policy'], url).toMatch(/camera=\(\)/);
    }
  });

  it(
    'sends the brotli file to browsers that accept it, the original to others, and never the build ' + 'manifest',
    async () => {
      const br = await t.app.inject({
        url: '/assets/login-page-abc.js',
        headers: { 'accept-encoding': 'gzip, deflate, br' },
      });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['content-type']).toMatch(/javascript/);
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.rawPayload.length).toBeLessThan(script.length);

      const plain = await t.app.inject({
        url: '/assets/login-page-abc.js',
        headers: { 'accept-encoding': 'identity' },
      });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(script);

      const manifest = await t.app.inject('/.vite/route-preloads.json');
      expect(manifest.headers['content-type']).toMatch(/^text\/html/); // the SPA page, not the file
      expect(manifest.body).not.toContain('alert');
    },
  );

  it("never serves source maps, and answers a missing asset with 404, not the app's page", async () => {
    for (const url of [
      '/assets/login-page-abc.js.map',
      '/index.js.map',
      '/assets/login-page-abc.js.map?x=1',
      '/assets/missing-abc.js',
      '/assets/missing.css',
    ]) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
      expect(res.json(), url).toMatchObject({ code: 'NOT_FOUND' });
      expect(res.body).not.toContain('secret source');
    }
    // HEAD as browsers' preloaders may send it, and with brotli accepted.
    expect((await t.app.inject({ method: 'HEAD', url: '/assets/missing-abc.js' })).statusCode).toBe(404);
    expect(
      (await t.app.inject({ url: '/assets/login-page-abc.js.map', headers: { 'accept-encoding': 'br' } })).statusCode,
    ).toBe(404);
    // Deep links of the app still get its page, and real assets still load.
    expect((await t.app.inject('/bookings/abc')).headers['content-type']).toMatch(/^text\/html/);
    expect((await t.app.inject('/assets/login-page-abc.js')).statusCode).toBe(200);
  });
});
