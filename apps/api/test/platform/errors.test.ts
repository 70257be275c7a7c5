import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { errors } from '../../src/lib/errors';
import { createTestApp, type TestApp } from '../helpers/test-app';

describe('error model (API.md "Conventions")', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ BODY_LIMIT_BYTES: '2048' }, undefined, (app) => {
      const r = app.withTypeProvider<ZodTypeProvider>();
      r.post(
        '/api/v1/test/echo/:id',
        {
          config: { auth: 'public' },
          schema: {
            params: z.strictObject({ id: z.uuid() }),
            querystring: z.strictObject({ n: z.coerce.number().int().optional() }),
            body: z.strictObject({ name: z.string().min(1) }),
          },
        },
        async (req) => ({ ok: req.body.name }),
      );
      r.get('/api/v1/test/boom', { config: { auth: 'public' } }, async () => {
        throw new Error('secret internals: relation "users" at /srv/app.ts:12');
      });
      r.get('/api/v1/test/conflict', { config: { auth: 'public' } }, async () => {
        throw errors.slotUnavailable('That session was just taken.');
      });
    });
  });
  afterAll(async () => t.close());

  const id = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url,
      payload: payload as string,
      headers: { 'content-type': 'application/json', ...headers },
    });

  it('accepts a valid request', async () => {
    const res = await post(`/api/v1/test/echo/${id}`, { name: 'Holly' });
    expect(res.statusCode).toBe(200);
  });

  it('rejects unknown fields with VALIDATION_FAILED and details', async () => {
    const res = await post(`/api/v1/test/echo/${id}`, { name: 'Holly', admin: true });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION_FAILED');
    expect(typeof body.error).toBe('string');
    expect(body.details[0].path).toMatch(/^body/);
  });

  it('validates params and query strings', async () => {
    const badParam = await post('/api/v1/test/echo/not-a-uuid', { name: 'x' });
    expect(badParam.statusCode).toBe(400);
    expect(badParam.json().details[0].path).toBe('params.id');
    const badQuery = await post(`/api/v1/test/echo/${id}?n=abc`, { name: 'x' });
    expect(badQuery.json().code).toBe('VALIDATION_FAILED');
    expect(badQuery.json().details[0].path).toBe('querystring.n');
  });

  it('answers malformed JSON with VALIDATION_FAILED', async () => {
    const res = await post(`/api/v1/test/echo/${id}`, '{"name": ');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('refuses bodies over the limit with 413', async () => {
    const res = await post(`/api/v1/test/echo/${id}`, { name: 'x'.repeat(5000) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'PAYLOAD_TOO_LARGE', error: expect.any(String) });
  });

  it('refuses other media types with 415', async () => {
    const res = await post(`/api/v1/test/echo/${id}`, 'name=x', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('UNSUPPORTED_MEDIA_TYPE');
  });

  it('maps AppError to its status and code', async () => {
    const res = await t.app.inject('/api/v1/test/conflict');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ error: 'That session was just taken.', code: 'SLOT_UNAVAILABLE' });
  });

  it('answers unexpected errors with a 500 that leaks nothing', async () => {
    const res = await t.app.inject('/api/v1/test/boom');
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: expect.any(String), code: 'INTERNAL' });
    expect(res.body).not.toMatch(/secret|relation|\.ts/);
  });
});
