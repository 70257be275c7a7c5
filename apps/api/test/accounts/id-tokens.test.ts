import { createPrivateKey, createSecretKey } from 'node:crypto';
import { generateKeyPair, SignJWT, UnsecuredJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { bearer, createSignedInUser } from '../helpers/accounts';

describe('ID tokens: ES256, 15 minutes, our issuer and audience only', () => {
  let t: TestApp;
  let user: { id: string; idToken: string };
  beforeAll(async () => {
    t = await createTestApp();
    user = await createSignedInUser(t.app, t.db, 'tokens@example.com', { verified: true });
  });
  afterAll(async () => t.close());

  const me = (token: string) => t.app.inject({ url: '/api/v1/user/me', headers: bearer(token) });
  const header = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString());
  const payload = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
  const claims = () => ({ email: 'tokens@example.com', email_verified: true, dashboard_user: false });
  const now = () => Math.floor(t.clock.now().getTime() / 1000);
  const expectRefused = async (token: string) => {
    const res = await me(token);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('UNAUTHENTICATED');
  };

  it('issues ES256 tokens with a kid and the claims of API.md', async () => {
    expect(header(user.idToken)).toMatchObject({ alg: 'ES256', typ: 'JWT', kid: expect.any(String) });
    const p = payload(user.idToken);
    expect(p).toMatchObject({ sub: user.id, ...claims(), iss: 'kringle', aud: 'kringle-web' });
    expect(p.exp - p.iat).toBe(15 * 60);
    expect((await me(user.idToken)).statusCode).toBe(200);
  });

  it('refuses an expired token (the clock moved past 15 minutes)', async () => {
    const fresh = await createSignedInUser(t.app, t.db, 'expired@example.com', { verified: true });
    t.clock.advance(14 * 60 * 1000);
    expect((await me(fresh.idToken)).statusCode).toBe(200);
    t.clock.advance(61 * 1000);
    await expectRefused(fresh.idToken);
  });

  it('refuses alg=none', async () => {
    const none = new UnsecuredJWT(claims())
      .setSubject(user.id)
      .setIssuer('kringle')
      .setAudience('kringle-web')
      .setIssuedAt(now())
      .setExpirationTime(now() + 600)
      .encode();
    await expectRefused(none);
  });

  it('refuses an HS256 token, even one keyed with the public key (algorithm confusion)', async () => {
    const key = createSecretKey(Buffer.from(t.app.secrets.jwtPrivateKeyPem));
    const hs = await new SignJWT(claims())
      .setProtectedHeader({ alg: 'HS256', kid: header(user.idToken).kid })
      .setSubject(user.id)
      .setIssuer('kringle')
      .setAudience('kringle-web')
      .setIssuedAt(now())
      .setExpirationTime(now() + 600)
      .sign(key);
    await expectRefused(hs);
  });

  it('refuses a token signed by another ES256 key', async () => {
    const { privateKey } = await generateKeyPair('ES256');
    const kid = header(user.idToken).kid;
    const sign = (aud: string, iss: string) =>
      new SignJWT(claims())
        .setProtectedHeader({ alg: 'ES256', kid })
        .setSubject(user.id)
        .setIssuer(iss)
        .setAudience(aud)
        .setIssuedAt(now())
        .setExpirationTime(now() + 600)
        .sign(privateKey);
    await expectRefused(await sign('kringle-web', 'kringle'));
  });

  it('refuses our own key with a wrong audience or issuer', async () => {
    const key = createPrivateKey(t.app.secrets.jwtPrivateKeyPem);
    const kid = header(user.idToken).kid;
    const sign = (aud: string, iss: string) =>
      new SignJWT(claims())
        .setProtectedHeader({ alg: 'ES256', kid })
        .setSubject(user.id)
        .setIssuer(iss)
        .setAudience(aud)
        .setIssuedAt(now())
        .setExpirationTime(now() + 600)
        .sign(key);
    expect((await me(await sign('kringle-web', 'kringle'))).statusCode).toBe(200);
    await expectRefused(await sign('kringle-admin', 'kringle'));
    await expectRefused(await sign('kringle-web', 'someone-else'));
  });

  it('refuses a token whose signature was tampered with', async () => {
    const [h, , s] = user.idToken.split('.');
    const forged = Buffer.from(
      JSON.stringify({ ...payload(user.idToken), dashboard_user: false, email: 'admin@example.com' }),
    ).toString('base64url');
    await expectRefused(`${h}.${forged}.${s}`);
  });
});
