import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_ROOT } from '../../src/lib/api-root';
import { createTestApp, type TestApp } from '../helpers/test-app';

const REPO_ROOT = path.resolve(API_ROOT, '../..');

/**
 * Redocly's linter (recommended rules: redocly.yaml at the root, with the reasoned exceptions of
 * .redocly.lint-ignore.yaml) on the document the API serves. Any new problem fails the test.
 */
describe('OpenAPI document passes redocly lint', () => {
  let t: TestApp;
  const dir = mkdtempSync(path.join(tmpdir(), 'kringle-openapi-'));
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('has no errors and no warnings', async () => {
    // The ignore file names the document by its path next to it, so all three share a folder.
    writeFileSync(path.join(dir, 'openapi.json'), (await t.app.inject('/api/v1/openapi.json')).body);
    for (const name of ['redocly.yaml', '.redocly.lint-ignore.yaml'])
      copyFileSync(path.join(REPO_ROOT, name), path.join(dir, name));
    const run = spawnSync(
      path.join(REPO_ROOT, 'node_modules/.bin/redocly'),
      ['lint', 'openapi.json', '--format', 'stylish', '--max-problems', '200'],
      {
        cwd: dir,
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
        timeout: 120_000,
      },
    );
    const output = `${run.stdout}\n${run.stderr}`;
    expect(output, output).toMatch(/Woohoo! Your API description is valid/);
    expect(output, output).not.toMatch(/warning/i);
    expect(run.status, output).toBe(0);
  }, 180_000);

  it('describes the refresh cookie, the Stripe webhook and who may call what', async () => {
    type Op = {
      operationId?: string;
      security?: Record<string, string[]>[];
      parameters?: { in: string; name: string; required?: boolean }[];
    };
    const doc = (await t.app.inject('/api/v1/openapi.json')).json() as {
      paths: Record<string, Record<string, Op>>;
      components: { securitySchemes: Record<string, unknown> };
    };
    const op = (method: string, p: string) => doc.paths[`/api/v1${p}`]![method]!;
    const ops = Object.values(doc.paths).flatMap((item) => Object.values(item));
    const ids = ops.map((o) => o.operationId);
    expect(ids.every(Boolean)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ops.every((o) => Array.isArray(o.security))).toBe(true);

    expect(doc.components.securitySchemes.cookieAuth).toMatchObject({
      type: 'apiKey',
      in: 'cookie',
      name: 'kringle_refresh',
    });
    for (const p of ['/auth/refresh', '/auth/sign-out'])
      expect(op('post', p).security).toEqual([{ cookieAuth: [], appCheck: [] }]);
    expect(op('post', '/webhooks/stripe').security).toEqual([]);
    expect(op('post', '/webhooks/stripe').parameters).toContainEqual(
      expect.objectContaining({ in: 'header', name: 'stripe-signature', required: true }),
    );
    expect(op('get', '/health').security).toEqual([]);
    expect(op('get', '/common/policy').security).toEqual([{ appCheck: [] }]);
    expect(op('get', '/bookings/{id}/calendar.ics').operationId).toBe('getBookingsByIdCalendarIcs');
  });
});
