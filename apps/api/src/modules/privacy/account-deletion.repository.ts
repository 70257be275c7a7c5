import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { mailOfAccount } from '../mail/outbox.repository';
import { LIVE_BOOKING_STATUSES } from '../sessions/session-rules.sql';

/** The family's bookings still ahead, paid or being paid: what deleting the account would cancel. */
export async function upcomingBookingsOf(
  db: DbOrTx,
  userId: string,
  now: Date,
): Promise<{ id: string; reference: string }[]> {
  const r = await db.execute(sql`
    select b.id, b.reference from bookings b join slots s on s.id = b.slot_id
    where b.user_id = ${userId}::uuid and b.status in ${sql.raw(LIVE_BOOKING_STATUSES)} and s.start_at >
    ${now.toISOString()}::timestamptz
    order by s.start_at`);
  return r.rows.map((row) => ({ id: row.id as string, reference: row.reference as string }));
}

export async function bookingIdsOf(db: DbOrTx, userId: string): Promise<string[]> {
  const r = await db.execute(sql`select id from bookings where user_id = ${userId}::uuid`);
  return r.rows.map((row) => row.id as string);
}

/**
 * Removes what names the person from every row, in the caller's transaction (decision 0058). The
 * user row stays, under an address that cannot receive mail, so ids in bookings, orders and the
 * audit trail still join; paid orders first copy the name their tax invoice prints (kept
 * INVOICE_RETENTION_YEARS). Mail still waiting to go (the cancellations' refund notices) is sent,
 * then pruned with the rest of the outbox.
 */
export async function anonymiseAccount(tx: DbOrTx, userId: string, email: string, now: Date): Promise<void> {
  const at = now.toISOString();
  // Bookings before their orders, the order the payment webhook and a cancel lock them in: orders
  // first, a payment landing during the deletion deadlocked with it (issue 48).
  await tx.execute(sql`select id from bookings where user_id = ${userId}::uuid order by id for update`);
  await tx.execute(sql`
    update orders o set invoice_name = nullif(trim(u.first_name || ' ' || u.last_name), '')
    from users u where u.id = ${userId}::uuid and o.user_id = u.id and o.paid_at is not null and o.invoice_name is
    null`);
  await tx.execute(
    sql`update orders set purchase_ip = null where user_id = ${userId}::uuid and purchase_ip is not null`,
  );
  await tx.execute(sql`
    update bookings set details = null, details_deleted_at = ${at}::timestamptz, updated_at = ${at}::timestamptz
    where user_id = ${userId}::uuid and details is not null`);
  await tx.execute(
    sql`delete from mail_outbox m where
${mailOfAccount(sql`${userId}::uuid`, sql`${email}`)} and m.status <> 'pending'`,
  );
  await tx.execute(sql`delete from password_reset_requests where email = ${email}`);
  // The family's text messages and the catcher's copies of them; the devices its passes were on. A
  // number's STOP (sms_opt_outs) is kept: the number asked not to be texted, whoever holds it next.
  await tx.execute(sql`delete from dev_sms where to_number = (select phone from users where id = ${userId}::uuid)`);
  await tx.execute(sql`delete from sms_outbox where user_id = ${userId}::uuid`);
  await tx.execute(sql`delete from wallet_registrations r using bookings b
    where b.id = r.booking_id and b.user_id = ${userId}::uuid`);
  await tx.execute(sql`delete from action_codes where user_id = ${userId}::uuid`);
  // The one change the audit trail allows: an actor's e-mail erased, its id kept.
  await tx.execute(
    sql`update audit_entries set actor_email = null where actor_id = ${userId}::uuid and actor_email is not null`,
  );
  await tx.execute(sql`
    update users set email = 'deleted-' || id || '@deleted.invalid', first_name = '', last_name = '', phone = null,
    sms_reminders = false,
      password_hash = '!', preferred_location_id = null, deleted_at = ${at}::timestamptz, updated_at =
      ${at}::timestamptz
    where id = ${userId}::uuid`);
}
