import { desc, eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import type { Db } from '../../src/db/client';
import { users } from '../../src/db/schema/accounts';
import { mailOutbox } from '../../src/db/schema/mail';
import { REFRESH_COOKIE } from '../../src/modules/accounts/refresh-cookie';

/** Shared by the accounts tests (not a test file itself). */
export const STRONG_PASSWORD = 'Sleigh-Bells-Ring-42';
export const APP_ORIGIN = 'http://localhost:5173';

export async function register(app: FastifyInstance, email: string, password = STRONG_PASSWORD) {
  return app.inject({
    method: 'POST',
    url: '/api/v1/user',
    payload: { email, password, firstName: 'mary', lastName: 'christmas' },
  });
}

export async function signIn(app: FastifyInstance, email: string, password = STRONG_PASSWORD) {
  return app.inject({ method: 'POST', url: '/api/v1/auth/sign-in', payload: { email, password } });
}

export function refreshCookieOf(res: LightMyRequestResponse): string | undefined {
  return res.cookies.find((c) => c.name === REFRESH_COOKIE)?.value;
}

export async function refresh(app: FastifyInstance, token: string | undefined) {
  return app.inject({ method: 'POST', url: '/api/v1/auth/refresh', cookies: token ? { [REFRESH_COOKIE]: token } : {} });
}

export const bearer = (idToken: string) => ({ authorization: `Bearer ${idToken}` });

/** Registers, optionally marks verified / staff in the database, and signs in. */
export async function createSignedInUser(
  app: FastifyInstance,
  db: Db,
  email: string,
  opts: { verified?: boolean; staff?: boolean } = {},
) {
  const created = await register(app, email);
  if (created.statusCode !== 201) throw new Error(`register failed: ${created.body}`);
  const id = (created.json() as { user: { id: string } }).user.id;
  if (opts.verified || opts.staff) {
    await db
      .update(users)
      .set({
        emailVerifiedAt: opts.verified ? new Date() : null,
        isStaff: opts.staff ?? false,
        staffRole: opts.staff ? 'set' : null,
      })
      .where(eq(users.id, id));
  }
  const session = await signIn(app, email);
  if (session.statusCode !== 200) throw new Error(`sign-in failed: ${session.body}`);
  const body = session.json() as { idToken: string };
  return { id, idToken: body.idToken, refreshToken: refreshCookieOf(session)! };
}

export async function outboxFor(db: Db, to: string) {
  return db.select().from(mailOutbox).where(eq(mailOutbox.toAddress, to)).orderBy(desc(mailOutbox.createdAt));
}

/**
 * Waits (up to 5 s) until `to` has at least `count` mails: reset mails are written just after
 * the answer (account-actions.service.ts), so a test reads them once they are there.
 */
export async function awaitMails(db: Db, to: string, count = 1) {
  const deadline = Date.now() + 5000;
  for (;;) {
    const mails = await outboxFor(db, to);
    if (mails.length >= count || Date.now() > deadline) return mails;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** The action link's code from the newest mail to `to` (text part). */
export async function latestLink(db: Db, to: string): Promise<URL> {
  const [mail] = await outboxFor(db, to);
  const match = mail?.text.match(/https?:\/\/\S+\/verify\?\S+/);
  if (!match) throw new Error(`no action link mailed to ${to}`);
  return new URL(match[0]);
}
