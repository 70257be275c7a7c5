import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';

export type SmsKind = 'reminder' | 'closure' | 'move' | 'delay';

export interface OutgoingSms {
  to: string;
  body: string;
  kind: SmsKind;
  userId: string | null;
  bookingId: string | null;
}

/**
 * Queues an SMS in the caller's transaction (sent if and only if the change commits), or records
 * it `suppressed` when the number replied STOP or already has `cap` messages from the last 24
 * hours. The number's advisory lock makes the count exact when two changes text it at once.
 * Returns whether it will be sent.
 */
export async function enqueueSms(db: DbOrTx, sms: OutgoingSms, now: Date, cap: number): Promise<boolean> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`sms:${sms.to}`}, 0))`);
  const { rows } = await db.execute(sql`
    select exists (select 1 from sms_opt_outs where number = ${sms.to}) as stopped,
      (select count(*)::int from sms_outbox where to_number = ${sms.to} and status in ('pending', 'sent')
        and created_at > ${now.toISOString()}::timestamptz - interval '24 hours') as recent`);
  const { stopped, recent } = rows[0] as { stopped: boolean; recent: number };
  const suppressed = stopped ? 'stopped' : recent >= cap ? 'daily_cap' : null;
  await db.execute(sql`
    insert into sms_outbox (to_number, body, kind, user_id, booking_id, status, suppressed_reason, created_at,
    next_attempt_at)
    values (${sms.to}, ${sms.body}, ${sms.kind}, ${sms.userId}::uuid, ${sms.bookingId}::uuid,
      ${suppressed ? 'suppressed' : 'pending'}, ${suppressed}, ${now.toISOString()}::timestamptz,
      ${now.toISOString()}::timestamptz)`);
  return !suppressed;
}

/** A family's mobile for SMS (E.164 Australian, from PATCH /user/me) and its reminder choice. */
export async function familyMobile(db: DbOrTx, userId: string): Promise<{ phone: string; reminders: boolean } | null> {
  const { rows } = await db.execute(
    sql`select phone, sms_reminders from users where id =
${userId}::uuid and deleted_at is null and phone like '+614%'`,
  );
  const r = rows[0] as { phone: string; sms_reminders: boolean } | undefined;
  return r ? { phone: r.phone, reminders: r.sms_reminders } : null;
}

export interface ClaimedSms {
  id: string;
  to: string;
  body: string;
  attempts: number;
}

/** Claims due rows with a lease, as the mail outbox does (outbox.repository.ts). */
export async function claimDueSms(db: Db, now: Date, leaseUntil: Date, limit: number): Promise<ClaimedSms[]> {
  const { rows } = await db.execute(sql`
    with due as (
      select id from sms_outbox
      where status = 'pending' and (attempts = 0 or next_attempt_at <= ${now.toISOString()}::timestamptz)
      order by next_attempt_at, created_at limit ${limit} for update skip locked
    )
    update sms_outbox s set attempts = s.attempts + 1, next_attempt_at = ${leaseUntil.toISOString()}::timestamptz
    from due where s.id = due.id
    returning s.id, s.to_number, s.body, s.attempts`);
  return (rows as { id: string; to_number: string; body: string; attempts: number }[]).map((r) => ({
    id: r.id,
    to: r.to_number,
    body: r.body,
    attempts: r.attempts,
  }));
}

export async function isStopped(db: DbOrTx, number: string): Promise<boolean> {
  const { rows } = await db.execute(sql`select 1 from sms_opt_outs where number = ${number}`);
  return rows.length > 0;
}

export async function markSmsSent(db: Db, id: string, now: Date, providerId: string | null): Promise<void> {
  await db.execute(sql`update sms_outbox set status = 'sent', sent_at = ${now.toISOString()}::timestamptz,
    provider_id = ${providerId}, last_error = null where id = ${id}::uuid`);
}

export async function markSmsSuppressed(db: Db, id: string, reason: string): Promise<void> {
  await db.execute(
    sql`update sms_outbox set status = 'suppressed', suppressed_reason = ${reason} where id = ${id}::uuid`,
  );
}

export async function markSmsAttemptFailed(db: Db, id: string, error: string, retryAt: Date | null): Promise<void> {
  await db.execute(sql`
    update sms_outbox set status = ${retryAt ? 'pending' : 'failed'},
      next_attempt_at = coalesce(${retryAt?.toISOString() ?? null}::timestamptz, next_attempt_at),
      last_error = ${error.slice(0, 2000)}
    where id = ${id}::uuid`);
}

/** STOP: the number gets nothing more (pending messages included); START lifts it. */
export async function setStopped(db: Db, number: string, stopped: boolean, now: Date): Promise<void> {
  if (stopped)
    await db.execute(sql`insert into sms_opt_outs (number, stopped_at) values
(${number}, ${now.toISOString()}::timestamptz)
      on conflict (number) do nothing`);
  else await db.execute(sql`delete from sms_opt_outs where number = ${number}`);
}

export async function catchSms(db: Db, to: string, from: string, body: string, now: Date): Promise<string> {
  const { rows } = await db.execute(sql`insert into dev_sms (to_number, from_number, body, created_at)
    values (${to}, ${from}, ${body}, ${now.toISOString()}::timestamptz) returning id`);
  return (rows[0] as { id: string }).id;
}

export async function listCaughtSms(db: Db, to: string | undefined, limit: number) {
  const { rows } = await db.execute(sql`
    select id, to_number, body, created_at from dev_sms
    where ${to ?? null}::text is null or to_number = ${to ?? null}
    order by created_at desc limit ${limit}`);
  return (rows as { id: string; to_number: string; body: string; created_at: string | Date }[]).map((r) => ({
    id: r.id,
    to: r.to_number,
    body: r.body,
    at: new Date(r.created_at).toISOString(),
  }));
}
