import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createProbeApp, type ProbeApp } from './platform-probe-app';
import { solvedPayload, type Challenge } from '../helpers/app-check';

const exchange = (app: FastifyInstance, payload: unknown) =>
  app.inject({ method: 'POST', url: '/api/v1/app-check/exchange', payload: { payload } });
const probe = (app: FastifyInstance, token?: string) =>
  app.inject({ url: '/api/v1/probe', headers: token === undefined ? {} : { 'x-app-check': token } });

describe('app check (enforce)', () => {
  let p: ProbeApp;
  beforeAll(async () => {
    p = await createProbeApp({ APP_CHECK_MODE: 'enforce' });
  });
  afterAll(async () => p.close());

  it('issues a modest ALTCHA challenge', async () => {
    const c = (await p.app.inject({ method: 'POST', url: '/api/v1/app-check/challenge' })).json<Challenge>();
    expect(c).toEqual({
      algorithm: 'SHA-256',
      challenge: expect.stringMatching(/^[0-9a-f]{64}$/),
      salt: expect.stringContaining('expires='),
      signature: expect.stringMatching(/^[0-9a-f]{64}$/),
      maxnumber: 50_000,
    });
  });

  it('exchanges a solved challenge for a token the API accepts', async () => {
    const res = await exchange(p.app, await solvedPayload(p.app));
    expect(res.statusCode).toBe(200);
    const { token, expiresAt } = res.json<{ token: string; expiresAt: string }>();
    expect(new Date(expiresAt).getTime() - p.clock.now().getTime()).toBe(3600_000);
    expect((await probe(p.app, token)).statusCode).toBe(200);

    p.clock.advance(3600_000 + 1000);
    const expired = await probe(p.app, token);
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toMatchObject({ code: 'APP_CHECK_INVALID', error: expect.any(String) });
  });

  it('refuses a replayed solution', async () => {
    const payload = await solvedPayload(p.app);
    expect((await exchange(p.app, payload)).statusCode).toBe(200);
    const again = await exchange(p.app, payload);
    expect(again.statusCode).toBe(403);
    expect(again.json()).toMatchObject({ code: 'ATTESTATION_FAILED', error: expect.any(String) });
  });

  it('refuses wrong, tampered, expired and garbage solutions', async () => {
    const wrong = await solvedPayload(p.app, (x) => (x.number = ((x.number as number) + 1) % 50_000));
    expect((await exchange(p.app, wrong)).json().code).toBe('ATTESTATION_FAILED');
    const forged = await solvedPayload(p.app, (x) => (x.signature = 'a'.repeat(64)));
    expect((await exchange(p.app, forged)).statusCode).toBe(403);
    const extra = await solvedPayload(p.app, (x) => (x.admin = true));
    expect((await exchange(p.app, extra)).statusCode).toBe(403);

    const late = await solvedPayload(p.app);
    p.clock.advance(6 * 60_000);
    expect((await exchange(p.app, late)).statusCode).toBe(403);

    expect((await exchange(p.app, Buffer.from('not json at all').toString('base64'))).statusCode).toBe(403);
    expect((await exchange(p.app, Buffer.from('{"a":1}').toString('base64'))).statusCode).toBe(403);
  });

  it('validates the exchange body strictly', async () => {
    const extraField = await p.app.inject({
      method: 'POST',
      url: '/api/v1/app-check/exchange',
      payload: { payload: 'YWJj', more: 1 },
    });
    expect(extraField.statusCode).toBe(400);
    expect(extraField.json().code).toBe('VALIDATION_FAILED');
    expect((await exchange(p.app, 'not base64!')).statusCode).toBe(400);
    expect((await exchange(p.app, 42)).statusCode).toBe(400);
  });

  it('requires the header on ordinary routes: missing, garbage, foreign token', async () => {
    const missing = await probe(p.app);
    expect(missing.statusCode).toBe(401);
    expect(missing.json()).toMatchObject({ code: 'APP_CHECK_REQUIRED' });
    expect((await probe(p.app, 'garbage')).json()).toMatchObject({ code: 'APP_CHECK_INVALID' });

    const other = await createProbeApp(
      { APP_CHECK_MODE: 'enforce' },
      { secret: 'another-secret-another-secret-0123456789' },
    );
    try {
      const { token } = (await exchange(other.app, await solvedPayload(other.app))).json<{ token: string }>();
      expect((await probe(other.app, token)).statusCode).toBe(200);
      expect((await probe(p.app, token)).json()).toMatchObject({ code: 'APP_CHECK_INVALID' });
    } finally {
      await other.close();
    }
  });

  it('leaves exempt paths, opted-out routes and unknown paths alone', async () => {
    for (const url of ['/api/v1/health', '/api/v1/ready', '/api/v1/openapi.json', '/health']) {
      expect((await p.app.inject(url)).statusCode, url).toBe(200);
    }
    expect((await p.app.inject('/api/v1/probe-open')).statusCode).toBe(200);
    expect((await p.app.inject('/api/v1/dev/outbox')).statusCode).toBe(200);
    expect((await p.app.inject('/api/v1/nothing-here')).statusCode).toBe(404);
  });

  it('documents X-App-Check in the OpenAPI output', async () => {
    const doc = (await p.app.inject('/api/v1/openapi.json')).json();
    expect(doc.components.securitySchemes.appCheck).toEqual({ type: 'apiKey', in: 'header', name: 'X-App-Check' });
    expect(doc.paths['/api/v1/probe'].get.security).toEqual([{ appCheck: [] }]);
    // Routes without app check or token say so (issue 16: public operations declare `security: []`).
    expect(doc.paths['/api/v1/health'].get.security).toEqual([]);
    expect(doc.paths['/api/v1/app-check/exchange'].post.security).toEqual([]);
  });
});

describe('app check modes', () => {
  it('monitor: logs but lets requests through', async () => {
    const p = await createProbeApp({ APP_CHECK_MODE: 'monitor' });
    try {
      expect((await probe(p.app)).statusCode).toBe(200);
      expect((await probe(p.app, 'garbage')).statusCode).toBe(200);
    } finally {
      await p.close();
    }
  });

  it('off: no check at all, and the exchange still works', async () => {
    const p = await createProbeApp({ APP_CHECK_MODE: 'off' });
    try {
      expect((await probe(p.app, 'garbage')).statusCode).toBe(200);
      expect((await exchange(p.app, await solvedPayload(p.app))).statusCode).toBe(200);
    } finally {
      await p.close();
    }
  });
});
