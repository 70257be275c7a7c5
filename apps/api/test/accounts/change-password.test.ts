import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../helpers/test-app';
import { bearer, createSignedInUser, refresh, refreshCookieOf, signIn, STRONG_PASSWORD } from '../helpers/accounts';

const NEW_PASSWORD = 'Reindeer-Games-2026';

describe('POST /user/me/password', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const change = (idToken: string, payload: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/user/me/password',
      headers: bearer(idToken),
      payload: payload as object,
    });

  it('changes the password, signs other devices out and keeps this one signed in', async () => {
    const here = await createSignedInUser(t.app, t.db, 'change@example.com', { verified: true });
    const otherDevice = refreshCookieOf(await signIn(t.app, 'change@example.com'));
    const res = await change(here.idToken, { currentPassword: STRONG_PASSWORD, newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ idToken: expect.any(String), user: { email: 'change@example.com' } });
    const fresh = refreshCookieOf(res);
    expect(fresh).toBeTruthy();
    expect((await refresh(t.app, otherDevice)).statusCode).toBe(401);
    expect((await refresh(t.app, here.refreshToken)).statusCode).toBe(401);
    expect((await refresh(t.app, fresh)).statusCode).toBe(200);
    expect((await signIn(t.app, 'change@example.com')).statusCode).toBe(401);
    expect((await signIn(t.app, 'change@example.com', NEW_PASSWORD)).statusCode).toBe(200);
  });

  it('refuses a wrong current password with 400 WRONG_PASSWORD and changes nothing', async () => {
    const who = await createSignedInUser(t.app, t.db, 'wrong@example.com', { verified: true });
    const res = await change(who.idToken, { currentPassword: 'Not-The-Password-1', newPassword: NEW_PASSWORD });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'WRONG_PASSWORD', details: [{ path: 'body.currentPassword' }] });
    expect((await refresh(t.app, who.refreshToken)).statusCode).toBe(200);
    expect((await signIn(t.app, 'wrong@example.com')).statusCode).toBe(200);
  });

  it('applies the registration rules to the new password and validates the body', async () => {
    const who = await createSignedInUser(t.app, t.db, 'weak@example.com', { verified: true });
    const weak = await change(who.idToken, { currentPassword: STRONG_PASSWORD, newPassword: 'password123' });
    expect(weak.statusCode).toBe(400);
    expect(weak.json()).toMatchObject({ code: 'WEAK_PASSWORD', details: [{ path: 'body.newPassword' }] });
    const same = await change(who.idToken, { currentPassword: STRONG_PASSWORD, newPassword: STRONG_PASSWORD });
    expect(same.json().code).toBe('WEAK_PASSWORD');
    const extra = await change(who.idToken, {
      currentPassword: STRONG_PASSWORD,
      newPassword: NEW_PASSWORD,
      email: 'x@example.com',
    });
    expect(extra.statusCode).toBe(400);
    expect(extra.json().code).toBe('VALIDATION_FAILED');
    expect((await change(who.idToken, { newPassword: NEW_PASSWORD })).json().code).toBe('VALIDATION_FAILED');
  });

  it('needs a signed-in customer', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/user/me/password',
      payload: { currentPassword: STRONG_PASSWORD, newPassword: NEW_PASSWORD },
    });
    expect(res.statusCode).toBe(401);
  });
});
