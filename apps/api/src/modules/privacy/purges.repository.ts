import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';

/**
 * Customer accounts whose e-mail was never verified, registered before `before`: deleted outright
 * (an unverified account can hold no booking, so nothing else points at it but cascading rows).
 * SKIP LOCKED lets several API processes run it at once.
 */
export async function purgeUnverifiedAccounts(db: DbOrTx, before: Date, limit: number): Promise<number> {
  const result = await db.execute(sql`
    with due as (
      select u.id from users u
      where u.email_verified_at is null and u.is_staff = false and u.deleted_at is null and u.created_at <
      ${before.toISOString()}::timestamptz
        and not exists (select 1 from bookings b where b.user_id = u.id)
      limit ${limit}
      for update of u skip locked
    )
    delete from users u using due where u.id = due.id`);
  return result.rowCount ?? 0;
}

/**
 * How long the address an order was paid from is kept (a dispute's evidence, migration 0041): a
 * cardholder may dispute up to 120 days after the charge, and the bank answers weeks later.
 */
export const PURCHASE_IP_DAYS = 180;

/** The addresses orders were paid from, once the payment is older than PURCHASE_IP_DAYS. */
export async function purgePurchaseIps(db: DbOrTx, paidBefore: Date, limit: number): Promise<number> {
  const result = await db.execute(sql`
    with due as (
      select id from orders where purchase_ip is not null and coalesce(paid_at, created_at) <
      ${paidBefore.toISOString()}::timestamptz
      limit ${limit}
      for update skip locked
    )
    update orders o set purchase_ip = null from due where o.id = due.id`);
  return result.rowCount ?? 0;
}

/** The names kept on tax invoices of deleted accounts, once the invoice is older than the retention. */
export async function purgeInvoiceNames(db: DbOrTx, paidBefore: Date, limit: number): Promise<number> {
  const result = await db.execute(sql`
    with due as (
      select id from orders where invoice_name is not null and paid_at < ${paidBefore.toISOString()}::timestamptz
      limit ${limit}
      for update skip locked
    )
    update orders o set invoice_name = null from due where o.id = due.id`);
  return result.rowCount ?? 0;
}
