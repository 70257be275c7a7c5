import { and, eq, like } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateJwtKey } from '../../src/config/secrets';
import { createDb, type Db } from '../../src/db/client';
import { passwordResetRequests } from '../../src/db/schema/accounts';
import { mailOutbox } from '../../src/db/schema/mail';
import { systemClock } from '../../src/lib/clock';
import { IdTokens } from '../../src/modules/accounts/id-tokens';
import { startApiProcesses, type ApiProcesses } from '../helpers/api-processes';
import { createCustomer } from '../helpers/customers';
import { createTestDatabase, ownerUrlOf } from '../helpers/test-app';
import { waitFor } from './booking-flow';

/**
 * Decision 0009 answers a password-reset request before the lookup and the mail. The API process
 * dies (SIGKILL) after answering and before that work commits: the request was written before
 * the answer, so a fresh process's reset-requests job sends the mail, once. (Before, the work
 * lived in the dead process's memory and the mail was lost.)
 */
describe('fault: the API killed between the reset answer and the reset mail', () => {
  let url: string;
  let db: Db;
  let closeDb: () => Promise<void>;
  let env: Record<string, string>;
  let first: ApiProcesses | null = null;
  let second: ApiProcesses | null = null;
  const locker = () => new pg.Client({ connectionString: url });
  let lock: pg.Client | null = null;

  beforeAll(async () => {
    url = await createTestDatabase();
    const conn = createDb(url, 3);
    db = conn.db;
    closeDb = () => conn.pool.end();
    env = {
      DATABASE_URL: url,
      MIGRATION_DATABASE_URL: ownerUrlOf(url),
      JWT_PRIVATE_KEY: await generateJwtKey(),
      APP_CHECK_SECRET: 'fault-test-secret-0123456789abcdef0123',
      APP_ORIGINS: 'http://localhost:5173',
    };
    first = await startApiProcesses(1, env);
  }, 120_000);
  afterAll(async () => {
    await lock?.end().catch(() => {});
    await first?.stop();
    await second?.stop();
    await closeDb?.();
  });

  it('a fresh process sends the reset mail that the killed one had answered for', async () => {
    const idTokens = await IdTokens.create({
      privateKeyPem: env.JWT_PRIVATE_KEY!,
      issuer: 'kringle',
      audience: 'kringle-web',
      clock: systemClock,
    });
    const who = await createCustomer(db, idTokens);
    const resetMails = () =>
      db
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.toAddress, who.email), like(mailOutbox.subject, 'Reset your%')));

    // Hold the account's row so the work after the answer blocks inside its transaction (the new
    // reset code's foreign key needs a share lock on it), then kill the process while it waits.
    lock = locker();
    await lock.connect();
    await lock.query('begin');
    await lock.query('select 1 from users where email = $1 for update', [who.email]);

    const res = await fetch(`${first!.urls[0]}/api/v1/user/auth/reset-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: who.email, redirectUrl: 'http://localhost:5173/login' }),
    });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(((await res.json()) as { message: string }).message).toMatch(/If an account exists/);
    await waitFor('the reset work to wait for the account row', async () => {
      const { rows } = await lock!.query<{ n: number }>(
        'select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = ' +
          "'Lock'",
      );
      return rows[0]!.n > 0 ? true : undefined;
    });
    await first!.kill(0);
    await lock.query('rollback');
    await lock.end();
    lock = null;
    expect(await resetMails()).toEqual([]);

    second = await startApiProcesses(1, env);
    const [mail] = await waitFor(
      'the reset mail from the new process',
      async () => {
        const mails = await resetMails();
        return mails.length ? mails : undefined;
      },
      30_000,
    );
    expect(mail!.text).toMatch(/http:\/\/localhost:5173\/verify\?mode=resetPassword&oobCode=\S+/);
    // Once, and the request is done with.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(await resetMails()).toHaveLength(1);
    expect(await db.select().from(passwordResetRequests)).toEqual([]);
  }, 180_000);
});
