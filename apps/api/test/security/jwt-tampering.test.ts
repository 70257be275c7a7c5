import { createPrivateKey, createPublicKey, createSecretKey, sign, type KeyObject } from 'node:crypto';
import { exportJWK, generateKeyPair, SignJWT, UnsecuredJWT, type JWTPayload } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, type TestCustomer } from '../helpers/customers';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { expectContractError } from './security-fixtures';

const b64 = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
const decode = (part: string) => JSON.parse(Buffer.from(part, 'base64url').toString()) as Record<string, unknown>;

/**
 * ASVS 3.5.3 / 13.x: every way of bending an ID token answers 401 UNAUTHENTICATED with the
 * contract body, on a "signed-in" route and a "customer" route alike.
 */
describe('ID token tampering', () => {
  let t: TestApp;
  let who: TestCustomer;
  let privateKey: KeyObject;
  let kid: string;
  let now: number;

  beforeAll(async () => {
    t = await createTestApp();
    who = await createCustomer(t.db, t.app.idTokens);
    privateKey = createPrivateKey(t.app.secrets.jwtPrivateKeyPem);
    kid = decode(who.idToken.split('.')[0]!).kid as string;
    now = Math.floor(t.clock.now().getTime() / 1000);
  });
  afterAll(async () => t.close());

  const claims = (): JWTPayload => ({
    sub: who.id,
    email: who.email,
    email_verified: true,
    dashboard_user: false,
    iss: 'kringle',
    aud: 'kringle-web',
    iat: now,
    exp: now + 600,
  });
  const signWith = (
    key: KeyObject | Awaited<ReturnType<typeof generateKeyPair>>['privateKey'] | Uint8Array,
    payload: JWTPayload,
    header: Record<string, unknown> = { alg: 'ES256', kid },
  ) => new SignJWT(payload).setProtectedHeader(header as { alg: string }).sign(key);
  /** Signs any header as it is (jose refuses to sign some of what an attacker would send). */
  const rawSign = (header: object, payload: object) => {
    const input = `${b64(header)}.${b64(payload)}`;
    return (
      `${input}.` +
      `${sign('sha256', Buffer.from(input), { key: privateKey, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`
    );
  };
  const without = (name: string) => Object.fromEntries(Object.entries(claims()).filter(([k]) => k !== name));

  const cases: [string, () => Promise<string>][] = [
    ['alg none', async () => new UnsecuredJWT(claims()).encode()],
    ['alg none with our kid', async () => `${b64({ alg: 'none', kid, typ: 'JWT' })}.${b64(claims())}.`],
    [
      'HS256 keyed with the public key PEM (algorithm confusion)',
      async () => {
        const pem = createPublicKey(privateKey).export({ type: 'spki', format: 'pem' });
        return signWith(createSecretKey(Buffer.from(pem)), claims(), { alg: 'HS256', kid });
      },
    ],
    [
      'HS256 keyed with the public JWK',
      async () => {
        const jwk = JSON.stringify(await exportJWK(createPublicKey(privateKey)));
        return signWith(createSecretKey(Buffer.from(jwk)), claims(), { alg: 'HS256', kid });
      },
    ],
    ['another ES256 key under our kid', async () => signWith((await generateKeyPair('ES256')).privateKey, claims())],
    [
      'an attacker key embedded as a jwk header',
      async () => {
        const pair = await generateKeyPair('ES256', { extractable: true });
        return signWith(pair.privateKey, claims(), { alg: 'ES256', kid, jwk: await exportJWK(pair.publicKey) });
      },
    ],
    ['wrong audience', async () => signWith(privateKey, { ...claims(), aud: 'kringle-dashboard' })],
    ['wrong issuer', async () => signWith(privateKey, { ...claims(), iss: 'https://evil.example' })],
    ['expired a second ago', async () => signWith(privateKey, { ...claims(), iat: now - 901, exp: now - 1 })],
    ['not valid before a future time (nbf)', async () => signWith(privateKey, { ...claims(), nbf: now + 300 })],
    ['unknown kid', async () => signWith(privateKey, claims(), { alg: 'ES256', kid: 'some-other-key' })],
    ['no kid', async () => signWith(privateKey, claims(), { alg: 'ES256' })],
    [
      'kid with path and SQL',
      async () => signWith(privateKey, claims(), { alg: 'ES256', kid: "../../etc/passwd' or '1'='1" }),
    ],
    [
      'payload changed under the original signature',
      async () => {
        const [h, p, s] = who.idToken.split('.');
        return `${h}.${b64({ ...decode(p!), sub: '7c9e6679-7425-40de-944b-e07fc1f90ae7' })}.${s}`;
      },
    ],
    [
      'claims escalated (dashboard_user off, verified on) under the original signature',
      async () => {
        const [h, p, s] = who.idToken.split('.');
        return `${h}.${b64({ ...decode(p!), email_verified: true, exp: now + 86_400 })}.${s}`;
      },
    ],
    [
      'header changed to ES384 under the original signature',
      async () => {
        const [, p, s] = who.idToken.split('.');
        return `${b64({ alg: 'ES384', kid, typ: 'JWT' })}.${p}.${s}`;
      },
    ],
    ['signature removed', async () => who.idToken.split('.').slice(0, 2).join('.') + '.'],
    ['missing sub', async () => signWith(privateKey, without('sub'))],
    ['missing exp', async () => signWith(privateKey, without('exp'))],
    ['missing iat', async () => signWith(privateKey, without('iat'))],
    ['missing email', async () => signWith(privateKey, without('email'))],
    ['missing email_verified', async () => signWith(privateKey, without('email_verified'))],
    ['missing dashboard_user', async () => signWith(privateKey, without('dashboard_user'))],
    ['sub that is not a user id', async () => signWith(privateKey, { ...claims(), sub: "1' or '1'='1" })],
    [
      'a critical header the server does not know',
      async () => rawSign({ alg: 'ES256', kid, crit: ['exp-x'], 'exp-x': 1 }, claims()),
    ],
  ];

  it('accepts the genuine token (so the refusals below are about the tampering)', async () => {
    expect((await t.app.inject({ url: '/api/v1/user/me', headers: who.headers })).statusCode).toBe(200);
    const raw = rawSign({ alg: 'ES256', kid, typ: 'JWT' }, claims());
    expect(
      (await t.app.inject({ url: '/api/v1/user/me', headers: { authorization: `Bearer ${raw}` } })).statusCode,
    ).toBe(200);
    const fresh = await signWith(privateKey, claims());
    expect(
      (await t.app.inject({ url: '/api/v1/bookings/upcoming-bookings', headers: { authorization: `Bearer ${fresh}` } }))
        .statusCode,
    ).toBe(200);
  });

  it.each(cases)('refuses %s with 401 UNAUTHENTICATED', async (_name, make) => {
    const token = await make();
    for (const url of ['/api/v1/user/me', '/api/v1/bookings/upcoming-bookings']) {
      const res = await t.app.inject({ url, headers: { authorization: `Bearer ${token}` } });
      expectContractError(res, 401, 'UNAUTHENTICATED');
      expect(res.json()).toEqual({ error: 'User not authenticated', code: 'UNAUTHENTICATED' });
    }
  });

  it(
    'refuses a token it accepted many times once the clock passes its exp (no remembered verification outlives ' +
      'it)',
    async () => {
      const fresh = await signWith(privateKey, { ...claims(), iat: now, exp: now + 60 });
      const call = () => t.app.inject({ url: '/api/v1/user/me', headers: { authorization: `Bearer ${fresh}` } });
      for (let i = 0; i < 3; i++) expect((await call()).statusCode).toBe(200);
      t.clock.advance(61_000);
      try {
        expectContractError(await call(), 401, 'UNAUTHENTICATED');
      } finally {
        t.clock.advance(-61_000);
      }
    },
  );

  it('takes the token only from the Authorization header (not a cookie or the query string)', async () => {
    for (const req of [
      { url: `/api/v1/user/me?idToken=${who.idToken}` },
      { url: `/api/v1/user/me?access_token=${who.idToken}` },
      { url: '/api/v1/user/me', cookies: { idToken: who.idToken } },
      { url: '/api/v1/user/me', headers: { authorization: who.idToken } },
      { url: '/api/v1/user/me', headers: { authorization: `Bearer ${who.idToken} ${who.idToken}` } },
    ]) {
      expectContractError(await t.app.inject(req), 401, 'UNAUTHENTICATED');
    }
  });
});
