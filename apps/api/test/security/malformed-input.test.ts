import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { expectContractError, stateChecksum, UUID_ZERO } from './security-fixtures';

/**
 * ASVS 5.1 / 13.1: hostile bodies and parameters get API.md's error body, change nothing, and
 * leave the server healthy. The plain cases (one malformed body, one oversized body, one wrong
 * media type) are in test/platform/errors.test.ts on a probe route; these run on the real routes.
 */
describe('oversized, malformed and odd input', () => {
  let t: TestApp;
  let who: TestCustomer;
  let before: Record<string, string>;
  beforeAll(async () => {
    t = await createTestApp();
    who = await createCustomer(t.db, t.app.idTokens);
    before = await stateChecksum(t.app);
  });
  afterAll(async () => t.close());

  const raw = (
    url: string,
    body: string | Buffer,
    contentType = 'application/json',
    method: 'POST' | 'PATCH' = 'POST',
  ) => t.app.inject({ method, url, payload: body, headers: { ...who.headers, 'content-type': contentType } });
  const signIn = (body: string) => raw('/api/v1/auth/sign-in', body);

  it(
    'refuses a body over the limit (64 KiB) with 413 PAYLOAD_TOO_LARGE, on public, token and webhook ' + 'routes',
    async () => {
      const big = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(70 * 1024) });
      expectContractError(await signIn(big), 413, 'PAYLOAD_TOO_LARGE');
      expectContractError(
        await raw('/api/v1/user/me', JSON.stringify({ firstName: 'x'.repeat(70 * 1024) }), 'application/json', 'PATCH'),
        413,
        'PAYLOAD_TOO_LARGE',
      );
      expectContractError(await raw('/api/v1/webhooks/stripe', big), 413, 'PAYLOAD_TOO_LARGE');
      // A lying Content-Length does not get past the limit either.
      const lying = await t.app.inject({
        method: 'POST',
        url: '/api/v1/auth/sign-in',
        payload: big,
        headers: { 'content-type': 'application/json', 'content-length': '10' },
      });
      expect([400, 413]).toContain(lying.statusCode);
      expectContractError(lying, lying.statusCode);
    },
  );

  it.each([
    ['truncated', '{"email": "a@example.com", "password": '],
    ['trailing garbage', '{"email":"a@example.com","password":"x"} trailing'],
    ['single quotes', "{'email':'a@example.com'}"],
    ['a bare string', '"just a string"'],
    ['null', 'null'],
    ['an array', '[]'],
    ['empty', ''],
    ['NaN', '{"email":"a@example.com","password":NaN}'],
    ['a lone surrogate escape in a key', '{"\\ud800":1}'],
    [
      'prototype pollution (__proto__)',
      '{"email":"a@example.com","password":"Sleigh-Bells-Ring-42","__proto__":{"isAdmin":true}}',
    ],
    [
      'prototype pollution (constructor.prototype)',
      '{"email":"a@example.com","password":"Sleigh-Bells-Ring-42","constructor":{"prototype":{"isAdmin":true}}}',
    ],
    ['deep nesting', `{"email":${'['.repeat(20_000)}${']'.repeat(20_000)}}`],
    ['a huge array', `{"email":"a@example.com","password":[${Array.from({ length: 15_000 }, () => '1').join(',')}]}`],
    ['duplicate keys', '{"email":"a@example.com","email":"b@example.com","password":"x"}'],
    [
      'invalid UTF-8 bytes',
      Buffer.from([0x7b, 0x22, 0x65, 0x6d, 0x61, 0x69, 0x6c, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0xff, 0x22, 0x7d]),
    ],
  ])('answers %s with a contract 4xx', async (_name, body) => {
    const res = await signIn(body as string);
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expectContractError(res, res.statusCode);
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
  });

  it.each([
    ['text/plain', 'email=a@example.com'],
    ['application/x-www-form-urlencoded', 'email=a%40example.com&password=x'],
    [
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="email"\r\n\r\na@example.com\r\n--x--',
    ],
    ['application/xml', '<email>a@example.com</email>'],
    ['application/json; charset=utf-16', '{"email":"a@example.com"}'],
    ['application/jsonx', '{"email":"a@example.com"}'],
    ['', '{"email":"a@example.com","password":"x"}'],
  ])('answers the media type %j with a contract 4xx', async (type, body) => {
    const res = await raw('/api/v1/auth/sign-in', body, type);
    expect([400, 415]).toContain(res.statusCode);
    expectContractError(res, res.statusCode);
  });

  it.each([
    ['NUL in a name', { firstName: 'Holly\u0000Berry' }],
    ['a lone surrogate', { firstName: 'Holly\ud800' }],
    ['control characters', { lastName: 'Berry\u0007\u001b[31m' }],
    ['a line break (header injection shape)', { firstName: 'Holly\r\nBcc: everyone@example.com' }],
    ['only invisible characters', { firstName: '\u200b\u200b' }],
    ['an overlong name', { firstName: 'x'.repeat(81) }],
    ['a number for a name', { firstName: 12 }],
    ['an object for a name', { firstName: { $ne: null } }],
    ['an unknown field', { isStaff: true }],
    ['a phone with letters', { phone: "0412'; drop table users;--" }],
  ])('profile update with %s: a contract 400 and nothing stored', async (_name, patch) => {
    const res = await t.app.inject({ method: 'PATCH', url: '/api/v1/user/me', headers: who.headers, payload: patch });
    expectContractError(res, 400);
  });

  it('stores unusual but legitimate names verbatim (accents, scripts, emoji, right-to-left)', async () => {
    for (const firstName of ['Zoë-Ōkawa', '张伟', 'Ngāti 🎅🏽', 'مريم', "O'Brien-Smith", 'e\u0301lodie']) {
      const res = await t.app.inject({
        method: 'PATCH',
        url: '/api/v1/user/me',
        headers: who.headers,
        payload: { firstName },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().user.firstName).toBe(firstName);
    }
    before = await stateChecksum(t.app);
  });

  it.each([
    '/api/v1/bookings/upcoming-bookings?cursor=99999999999999999999999999999999',
    "/api/v1/bookings/upcoming-bookings?cursor=' or 1=1--",
    '/api/v1/bookings/upcoming-bookings?cursor=%00',
    '/api/v1/bookings/past-bookings?cursor[]=a&cursor[]=b',
    '/api/v1/product/packages?locationId=1e309',
    "/api/v1/product/packages?locationId=' or '1'='1",
    '/api/v1/product/addons?locationId=-1',
    `/api/v1/booking-slot/${UUID_ZERO}/available-dates?from=275760-09-13&to=275760-09-14`,
    `/api/v1/booking-slot/${UUID_ZERO}/available-dates?from=2026-12-01&to=99999999-12-31`,
    `/api/v1/booking-slot/${UUID_ZERO}/available-dates?from=2026-02-31&to=2026-03-01`,
    `/api/v1/booking-slot/${UUID_ZERO}/available-slots?date=2026-12-05T00:00:00Z`,
    `/api/v1/booking-slot/${UUID_ZERO}/available-slots?date=1e400`,
    `/api/v1/booking-slot/${UUID_ZERO}/available-slots?date=2026-12-05&filter=<script>`,
    "/api/v1/booking-slot/1' or '1'='1/available-slots?date=2026-12-05",
    `/api/v1/booking-slot/${'9'.repeat(300)}/slots/${UUID_ZERO}`,
    '/api/v1/bookings/%2e%2e%2f%2e%2e%2fetc%2fpasswd',
    '/api/v1/bookings/%E0%A4%A',
    '/api/v1/orders/%ZZ/orders',
    '/api/v1/bookings/00000000-0000-4000-8000-000000000000%00',
    '/api/v1/orders/..%2f..%2fuser%2fme/orders',
    '/api/v1/dev/outbox?limit=1e309',
    '/api/v1/dev/outbox?limit=-9223372036854775809',
  ])('answers the query or path %s with a contract 4xx', async (url) => {
    const res = await t.app.inject({ url, headers: who.headers });
    expect(res.statusCode, res.body).toBeGreaterThanOrEqual(400);
    expect(res.statusCode, res.body).toBeLessThan(500);
    expectContractError(res, res.statusCode);
  });

  it('changed nothing, and the server is still healthy', async () => {
    expect(await stateChecksum(t.app)).toEqual(before);
    expect((await t.app.inject('/api/v1/ready')).statusCode).toBe(200);
    expect((await t.app.inject({ url: '/api/v1/user/me', headers: who.headers })).statusCode).toBe(200);
  });
});
