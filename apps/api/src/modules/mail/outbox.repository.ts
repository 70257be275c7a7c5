import { sql, type SQL } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { mailOutbox, type MailAttachment } from '../../db/schema/mail';

export interface OutgoingMail {
  to: string;
  subject: string;
  html: string;
  text: string;
  attachments?: MailAttachment[];
  /** Extra header lines, e.g. List-Unsubscribe on promotional mail (marketing/promotional-mail.ts). */
  headers?: Record<string, string>;
  /** Not sent before this (a gift voucher's send day); omitted: now. */
  notBefore?: Date;
}

/**
 * Queues a mail in the caller's transaction, so it is sent if and only if the change that
 * caused it commits. The outbox job delivers it with retries.
 */
export async function enqueueMail(db: DbOrTx, mail: OutgoingMail): Promise<string> {
  const [row] = await db
    .insert(mailOutbox)
    .values({
      toAddress: mail.to,
      subject: mail.subject,
      html: mail.html,
      text: mail.text,
      attachments: mail.attachments ?? [],
      headers: mail.headers ?? {},
      ...(mail.notBefore ? { nextAttemptAt: mail.notBefore } : {}),
    })
    .returning({ id: mailOutbox.id });
  return row!.id;
}

export interface ClaimedMail extends Required<Omit<OutgoingMail, 'notBefore'>> {
  id: string;
  /** Attempts including this one. */
  attempts: number;
}

/**
 * Claims up to `limit` due rows for one delivery attempt. SKIP LOCKED lets several processes
 * claim at once without waiting on each other; the claim commits at once with a lease
 * (next_attempt_at pushed to `leaseUntil`), so no other process takes the row while it is being
 * sent, and a process that dies mid-send leaves it to be retried when the lease ends.
 * A never-tried row is due at once whatever the clock says; retries follow the app clock.
 */
export async function claimDueMail(db: Db, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedMail[]> {
  const result = await db.execute<{
    id: string;
    to_address: string;
    subject: string;
    html: string;
    text: string;
    attachments: MailAttachment[];
    headers: Record<string, string>;
    attempts: number;
  }>(sql`
    with due as (
      select id from mail_outbox
      where status = 'pending' and (attempts = 0 or next_attempt_at <= ${now.toISOString()}::timestamptz)
      order by next_attempt_at, created_at
      limit ${limit}
      for update skip locked
    )
    update mail_outbox m
    set attempts = m.attempts + 1, next_attempt_at = ${leaseUntil.toISOString()}::timestamptz
    from due where m.id = due.id
    returning m.id, m.to_address, m.subject, m.html, m.text, m.attachments, m.headers, m.attempts`);
  return result.rows.map((r) => ({
    id: r.id,
    to: r.to_address,
    subject: r.subject,
    html: r.html,
    text: r.text,
    attachments: r.attachments,
    headers: r.headers,
    attempts: r.attempts,
  }));
}

export async function markMailSent(db: Db, id: string, now: Date): Promise<void> {
  await db.execute(
    sql`update mail_outbox set status = 'sent', sent_at =
${now.toISOString()}::timestamptz, last_error = null where id = ${id}`,
  );
}

/** Records a failed attempt: retry at `retryAt`, or give up (`failed`) when it is null. */
export async function markMailAttemptFailed(db: Db, id: string, error: string, retryAt: Date | null): Promise<void> {
  await db.execute(sql`
    update mail_outbox
    set status = ${retryAt ? 'pending' : 'failed'},
        next_attempt_at = coalesce(${retryAt?.toISOString() ?? null}::timestamptz, next_attempt_at),
        last_error = ${error.slice(0, 2000)}
    where id = ${id}`);
}

/**
 * Deletes sent mail older than `sentBefore` (failed and pending rows stay for a person to look
 * at), and dev-mailbox messages older than `caughtBefore` or beyond the newest `keepCaught`.
 * Returns how many rows of each went.
 */
export async function pruneMail(
  db: Db,
  opts: { sentBefore: Date; caughtBefore: Date; keepCaught: number },
): Promise<{ outbox: number; devMailbox: number }> {
  const outbox = await db.execute(
    sql`delete from mail_outbox where status = 'sent' and sent_at < ${opts.sentBefore.toISOString()}::timestamptz`,
  );
  const devMailbox = await db.execute(sql`
    delete from dev_mailbox where created_at < ${opts.caughtBefore.toISOString()}::timestamptz
      or id in (select id from dev_mailbox order by created_at desc offset ${opts.keepCaught})`);
  return { outbox: outbox.rowCount ?? 0, devMailbox: devMailbox.rowCount ?? 0 };
}

/**
 * The mail an account had at `address`, stamped as the account's before it moves to another
 * address (decision 0068): its export and its deletion keep finding it, and whoever registers
 * `address` next does not. Mail stamped for an earlier holder keeps its stamp.
 */
export async function keepMailOfAddress(db: DbOrTx, address: string, userId: string): Promise<void> {
  await db.execute(
    sql`update mail_outbox set user_id = ${userId}::uuid where to_address = ${address} and user_id is null`,
  );
}

/**
 * The SQL condition "this mail is the account's": stamped with its id, or unstamped and sent to
 * its current address. `m` is the mail_outbox alias; `userId` and `address` are SQL fragments.
 */
export const mailOfAccount = (userId: SQL, address: SQL) =>
  sql`(m.user_id = ${userId} or (m.user_id is null and m.to_address = ${address}))`;
