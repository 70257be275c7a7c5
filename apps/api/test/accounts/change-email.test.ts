import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema/accounts';
import { sha256 } from '../../src/modules/accounts/secure-tokens';
import { createTestApp, type TestApp } from '../helpers/test-app';
import {
  APP_ORIGIN,
  awaitMails,
  bearer,
  createSignedInUser,
  latestLink,
  outboxFor,
  register,
  signIn,
  STRONG_PASSWORD,
} from '../helpers/accounts';

/** PUT /user/me/email (issue 37 item 10, decision 0068): an unverified account corrects its address. */
describe('changing the address of an account not yet verified', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(async () => t.close());

  const post = (url: string, payload: object, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `/api/v1${url}`, payload, headers });
  const change = (idToken: string, payload: object) =>
    t.app.inject({ method: 'PUT', url: '/api/v1/user/me/email', payload, headers: bearer(idToken) });
  const changeTo = (idToken: string, email: string, password = STRONG_PASSWORD) =>
    change(idToken, { email, password, redirectUrl: APP_ORIGIN });
  const askVerification = (idToken: string) =>
    post('/user/auth/email-verification', { redirectUrl: APP_ORIGIN }, bearer(idToken));
  const codeOf = async (to: string) => (await latestLink(t.db, to)).searchParams.get('oobCode')!;
  const userRow = async (id: string) => (await t.db.select().from(users).where(eq(users.id, id)))[0]!;

  it('moves the account, voids the old links, mails a new one that verifies the new address', async () => {
    const u = await createSignedInUser(t.app, t.db, 'holly@exmaple.com');
    expect((await askVerification(u.idToken)).statusCode).toBe(200);
    const oldCode = await codeOf('holly@exmaple.com');
    // A reset link verifies the address too (the mailbox is proven): it must die with the address.
    expect(
      (await post('/user/auth/reset-password', { email: 'holly@exmaple.com', redirectUrl: APP_ORIGIN })).statusCode,
    ).toBe(200);
    const [reset] = await awaitMails(t.db, 'holly@exmaple.com', 2);
    const resetCode = new URL(reset!.text.match(/https?:\/\/\S+\/verify\?\S+/)![0]).searchParams.get('oobCode')!;

    // Straight after the first mail (under a minute): a typo fixed must not wait out the re-send interval.
    const res = await changeTo(u.idToken, '  Holly@Example.com ');
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ id: u.id, email: 'holly@example.com', emailVerified: false });

    for (const oobCode of [oldCode, resetCode]) {
      expect((await post('/auth/action/check', { oobCode })).json().code).toBe('INVALID_ACTION_CODE');
    }
    expect((await post('/auth/action/verify-email', { oobCode: oldCode })).json().code).toBe('INVALID_ACTION_CODE');
    expect(
      (
        await post('/auth/action/reset-password', { oobCode: resetCode, newPassword: 'Fresh-Snow-On-The-Roof-7' })
      ).json().code,
    ).toBe('INVALID_ACTION_CODE');
    expect((await userRow(u.id)).emailVerifiedAt).toBeNull();

    const mails = await outboxFor(t.db, 'holly@example.com');
    expect(mails).toHaveLength(1);
    expect(mails[0]!.subject).toContain('Verify your email address');
    const newCode = await codeOf('holly@example.com');
    expect((await post('/auth/action/check', { oobCode: newCode })).json()).toEqual({
      mode: 'verifyEmail',
      email: 'h***y@example.com',
    });
    expect((await post('/auth/action/verify-email', { oobCode: newCode })).statusCode).toBe(200);
    expect((await userRow(u.id)).emailVerifiedAt).not.toBeNull();

    // The account signs in at the new address only; the old one is free for whoever owns it.
    expect((await signIn(t.app, 'holly@example.com')).statusCode).toBe(200);
    expect((await signIn(t.app, 'holly@exmaple.com')).json().code).toBe('INVALID_CREDENTIALS');
    expect((await register(t.app, 'holly@exmaple.com')).statusCode).toBe(201);
  });

  it('sends one mail when the same request comes twice, one after the other or at once', async () => {
    const u = await createSignedInUser(t.app, t.db, 'twice@exmaple.com');
    const first = await changeTo(u.idToken, 'twice@example.com');
    const again = await changeTo(u.idToken, 'twice@example.com');
    expect([first.statusCode, again.statusCode]).toEqual([200, 200]);
    expect(again.json()).toEqual(first.json());
    expect(await outboxFor(t.db, 'twice@example.com')).toHaveLength(1);

    const v = await createSignedInUser(t.app, t.db, 'racer@exmaple.com');
    const raced = await Promise.all([
      changeTo(v.idToken, 'racer@example.com'),
      changeTo(v.idToken, 'racer@example.com'),
    ]);
    expect(raced.map((r) => r.statusCode)).toEqual([200, 200]);
    expect(await outboxFor(t.db, 'racer@example.com')).toHaveLength(1);
  });

  it('waits for a link being used at that moment, then answers 409 ALREADY_VERIFIED (no deadlock)', async () => {
    const u = await createSignedInUser(t.app, t.db, 'clicking@exmaple.com');
    await askVerification(u.idToken);
    const code = await codeOf('clicking@exmaple.com');
    // The link's use, held open half way, as verifyEmail does it: the code spent, then the user marked.
    const client = await t.pool.connect();
    try {
      await client.query('begin');
      await client.query('update action_codes set used_at = now() where code_hash = $1 and used_at is null', [
        sha256(code),
      ]);
      const changing = changeTo(u.idToken, 'clicking@example.com');
      // Until the change waits on a lock the link's use holds (argon2 first: it takes a moment).
      for (let i = 0; i < 200; i++) {
        // Another connection: pg_stat_activity keeps one snapshot for a whole transaction.
        const waiting = await t.pool.query(
          "select 1 from pg_stat_activity where wait_event_type = 'Lock' and datname = current_database()",
        );
        if (waiting.rowCount) break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      await client.query('update users set email_verified_at = now() where id = $1', [u.id]);
      await client.query('commit');
      const res = await changing;
      expect(res.statusCode, res.body).toBe(409);
      expect(res.json().code).toBe('ALREADY_VERIFIED');
    } finally {
      client.release();
    }
    expect((await userRow(u.id)).email).toBe('clicking@exmaple.com');
    expect(await outboxFor(t.db, 'clicking@example.com')).toHaveLength(0);
  });

  it('refuses a verified account (409 ALREADY_VERIFIED) and staff (403), changing nothing', async () => {
    const verified = await createSignedInUser(t.app, t.db, 'done@example.com', { verified: true });
    const res = await changeTo(verified.idToken, 'other-done@example.com');
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({ code: 'ALREADY_VERIFIED', error: expect.stringContaining('already verified') });
    expect((await userRow(verified.id)).email).toBe('done@example.com');

    const staff = await createSignedInUser(t.app, t.db, 'elf-change@example.com', { staff: true });
    const refused = await changeTo(staff.idToken, 'elf-moved@example.com');
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('STAFF_NOT_ALLOWED');
    expect((await userRow(staff.id)).email).toBe('elf-change@example.com');
    expect(await outboxFor(t.db, 'other-done@example.com')).toHaveLength(0);
    expect(await outboxFor(t.db, 'elf-moved@example.com')).toHaveLength(0);
  });

  it('answers a taken address exactly as registration does, and changes nothing', async () => {
    await register(t.app, 'taken@example.com');
    const u = await createSignedInUser(t.app, t.db, 'taker@exmaple.com');
    await askVerification(u.idToken);
    const oldCode = await codeOf('taker@exmaple.com');
    const asRegistration = await register(t.app, 'taken@example.com');
    const res = await changeTo(u.idToken, 'TAKEN@example.com');
    expect(res.statusCode).toBe(409);
    expect(res.body).toBe(asRegistration.body);
    expect(res.json().code).toBe('EMAIL_IN_USE');
    expect((await userRow(u.id)).email).toBe('taker@exmaple.com');
    expect((await post('/auth/action/check', { oobCode: oldCode })).statusCode).toBe(200);
  });

  it('answers bad input with 400 and changes nothing: no move, no mail, the old link still works', async () => {
    const u = await createSignedInUser(t.app, t.db, 'steady@exmaple.com');
    await askVerification(u.idToken);
    const oldCode = await codeOf('steady@exmaple.com');
    const cases: [object, string, string][] = [
      [
        { email: 'not an email', password: STRONG_PASSWORD, redirectUrl: APP_ORIGIN },
        'VALIDATION_FAILED',
        'body.email',
      ],
      [{ email: 'steady@example.com', redirectUrl: APP_ORIGIN }, 'VALIDATION_FAILED', 'body.password'],
      [{ email: 'steady@example.com', password: STRONG_PASSWORD }, 'VALIDATION_FAILED', 'body.redirectUrl'],
      [
        { email: 'steady@example.com', password: STRONG_PASSWORD, redirectUrl: APP_ORIGIN, emailVerified: true },
        'VALIDATION_FAILED',
        'body',
      ],
      [
        { email: 'steady@example.com', password: 'Not-My-Password-1', redirectUrl: APP_ORIGIN },
        'WRONG_PASSWORD',
        'body.password',
      ],
      [
        { email: 'steady@example.com', password: STRONG_PASSWORD, redirectUrl: 'https://evil.example' },
        'REDIRECT_NOT_ALLOWED',
        'body.redirectUrl',
      ],
    ];
    for (const [payload, code, path] of cases) {
      const res = await change(u.idToken, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().code).toBe(code);
      expect(res.json().details[0].path).toContain(path);
    }
    expect((await userRow(u.id)).email).toBe('steady@exmaple.com');
    expect(await outboxFor(t.db, 'steady@example.com')).toHaveLength(0);
    expect((await post('/auth/action/check', { oobCode: oldCode })).statusCode).toBe(200);
    expect(
      (
        await t.app.inject({
          method: 'PUT',
          url: '/api/v1/user/me/email',
          payload: { email: 'x@example.com', password: 'x', redirectUrl: APP_ORIGIN },
        })
      ).statusCode,
    ).toBe(401);
  });

  it("keeps the old address's mail in the family's export and deletion, and out of the next holder's", async () => {
    const u = await createSignedInUser(t.app, t.db, 'export@exmaple.com');
    await askVerification(u.idToken);
    await changeTo(u.idToken, 'export@example.com');
    await post('/auth/action/verify-email', { oobCode: await codeOf('export@example.com') });
    const stranger = await createSignedInUser(t.app, t.db, 'export@exmaple.com');
    await askVerification(stranger.idToken);
    await t.db.update(users).set({ emailVerifiedAt: new Date() }).where(eq(users.id, stranger.id));

    const exportOf = async (who: { id: string }) => {
      const token = (await signIn(t.app, (await userRow(who.id)).email)).json().idToken as string;
      const res = await t.app.inject({ method: 'GET', url: '/api/v1/user/export', headers: bearer(token) });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().emails as { to: string; subject: string; text: string }[];
    };
    const mine = await exportOf(u);
    expect(mine.map((m) => m.to)).toEqual(['export@exmaple.com', 'export@example.com']);
    expect(mine.every((m) => m.subject.includes('Verify your email address'))).toBe(true);
    const theirs = await exportOf(stranger);
    expect(theirs).toHaveLength(1);

    const token = (await signIn(t.app, 'export@example.com')).json().idToken as string;
    await t.db.execute(
      sql`update mail_outbox set status = 'sent' where user_id = ${u.id}::uuid or to_address = 'export@example.com'`,
    );
    const del = await t.app.inject({
      method: 'DELETE',
      url: '/api/v1/user',
      headers: bearer(token),
      payload: { password: STRONG_PASSWORD, confirmEmail: 'export@example.com' },
    });
    expect(del.statusCode, del.body).toBe(202);
    const left = await t.db.execute(
      sql`select to_address from mail_outbox where user_id = ${u.id}::uuid or to_address = 'export@example.com'`,
    );
    expect(left.rows).toEqual([]);
    // The stranger's own mail at the old address stays theirs.
    expect(await outboxFor(t.db, 'export@exmaple.com')).toHaveLength(1);
  });
});
