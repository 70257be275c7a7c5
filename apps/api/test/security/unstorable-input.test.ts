import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';
import {
  expectContractError,
  fillPath,
  operations,
  stateChecksum,
  UUID_ZERO,
  type Operation,
} from './security-fixtures';

/**
 * Text PostgreSQL cannot store (a NUL; a lone surrogate, which is invalid UTF-8 once percent-
 * decoded) in a query string, a path parameter or a header: 400 VALIDATION_FAILED on every route
 * of the OpenAPI document, never a 500 (a NUL in the dev outbox's `to=` was one, found by a scanner).
 */
const BAD = { nul: '%00', 'encoded surrogate': '%ED%A0%80', 'NUL after text': 'a%00b' };

describe('unstorable characters outside JSON bodies', () => {
  let t: TestApp;
  let who: TestCustomer;
  let ops: Operation[];
  let before: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    who = await createCustomer(t.db, t.app.idTokens);
    ops = await operations(t.app);
    before = await stateChecksum(t.app);
  });
  afterAll(async () => t?.close());

  const send = (op: Operation, url: string) =>
    t.app.inject({
      method: op.method as 'GET',
      url,
      headers: who.headers,
      ...(op.method === 'GET' ? {} : { payload: {} }),
    });
  const expectRefused = (res: Awaited<ReturnType<TestApp['app']['inject']>>, where: string | RegExp) => {
    expectContractError(res, 400, 'VALIDATION_FAILED');
    expect(res.json().details[0].path).toMatch(where);
  };

  it("refuses them in the dev outbox query string (the scanner's 500)", async () => {
    for (const [name, bad] of Object.entries(BAD)) {
      const res = await t.app.inject(`/api/v1/dev/outbox?to=${bad}@example.com`);
      expect(res.statusCode, name).toBe(400);
      expectRefused(res, 'query.to');
    }
    expectRefused(await t.app.inject('/dev/mailbox?to=a%00b'), 'query.to');
    expectRefused(await t.app.inject('/api/v1/dev/outbox?to%00=x'), /^query/);
  });

  it('refuses them in every path parameter and in a query string, on every route', async () => {
    let tried = 0;
    for (const op of ops) {
      for (const bad of Object.values(BAD)) {
        const withQuery = `${fillPath(op.path, Object.fromEntries(op.pathParams.map((p) => [p, UUID_ZERO])))}?q=${bad}`;
        expectRefused(await send(op, withQuery), 'query.q');
        for (const param of op.pathParams) {
          const url = fillPath(
            op.path,
            Object.fromEntries(op.pathParams.map((p) => [p, p === param ? `${UUID_ZERO}${bad}` : UUID_ZERO])),
          );
          expectRefused(await send(op, url), 'path');
        }
        tried++;
      }
    }
    expect(tried).toBeGreaterThan(60);
  });

  it('refuses them in headers, before auth, app check or an idempotency key reads them', async () => {
    for (const [name, value] of [
      ['idempotency-key', 'key\u0000one'],
      ['x-app-check', 'token\u0000'],
      ['x-anything', '\ud800'],
      ['authorization', `${who.headers.authorization}\u0000`],
    ] as const) {
      const res = await t.app.inject({
        method: 'GET',
        url: '/api/v1/bookings/upcoming-bookings',
        headers: { ...who.headers, [name]: value },
      });
      expectRefused(res, `headers.${name}`);
    }
  });

  it('refuses a lone surrogate in a JSON body too (it would be stored as U+FFFD)', async () => {
    const res = await t.app.inject({
      method: 'PATCH',
      url: '/api/v1/user/me',
      headers: { ...who.headers, 'content-type': 'application/json' },
      payload: '{"firstName":"Holly\\ud800"}',
    });
    expectRefused(res, 'body.firstName');
  });

  it('over real HTTP as well: the URL and a header with a NUL', async () => {
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    const res = await fetch(`${address}/api/v1/dev/outbox?to=%00`);
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 'VALIDATION_FAILED' });
    // fetch refuses to send a NUL in a header; a raw request does. Node's parser refuses it before
    // Fastify sees it: the answer is still a 400 with the contract body.
    const { port } = new URL(address);
    const raw = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), '127.0.0.1', () =>
        socket.end('GET /api/v1/health HTTP/1.1\r\nHost: x\r\nX-Test: a\u0000b\r\n\r\n'),
      );
      let text = '';
      socket.on('data', (d: Buffer) => (text += d.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(raw).toMatch(/^HTTP\/1\.1 400 /);
    expect(JSON.parse(raw.slice(raw.indexOf('\r\n\r\n') + 4))).toMatchObject({ code: 'VALIDATION_FAILED' });
  });

  it('changed nothing, and ordinary encoded input still works', async () => {
    expect(await stateChecksum(t.app)).toEqual(before);
    expect((await t.app.inject('/api/v1/dev/outbox?to=zo%C3%AB%2Bsanta%40example.com')).statusCode).toBe(200);
    expect((await t.app.inject('/api/v1/dev/outbox?to=%F0%9F%8E%85%40example.com')).statusCode).toBe(200);
  });
});
