import { and, asc, desc, eq, gte, inArray, or, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import type { VOUCHER_ENTRY_REASONS } from '@kringle/contracts/vouchers';
import { voucherCodeMisses, voucherEntries, vouchers } from '../../db/schema/vouchers';

export type VoucherRow = typeof vouchers.$inferSelect;
export type VoucherEntryReason = (typeof VOUCHER_ENTRY_REASONS)[number];
/** A voucher with its balance: the sum of its entries. */
export type VoucherWithBalance = VoucherRow & { balanceCents: number };

// Spelt out: drizzle may render the bare column name, which the subquery would read as its own e.id.
const balance = sql<number>`coalesce((select sum(e.cents) from voucher_entries e
  where e.voucher_id = "vouchers"."id"), 0)::int`;

export async function insertVoucher(tx: DbOrTx, v: typeof vouchers.$inferInsert): Promise<VoucherRow> {
  const [row] = await tx.insert(vouchers).values(v).returning();
  return row!;
}

export async function findVoucher(db: DbOrTx, id: string): Promise<VoucherWithBalance | undefined> {
  const [row] = await db.select({ v: vouchers, balanceCents: balance }).from(vouchers).where(eq(vouchers.id, id));
  return row && { ...row.v, balanceCents: row.balanceCents };
}

export async function findVoucherByHash(db: DbOrTx, hash: string): Promise<VoucherWithBalance | undefined> {
  const [row] = await db
    .select({ v: vouchers, balanceCents: balance })
    .from(vouchers)
    .where(eq(vouchers.codeHash, hash));
  return row && { ...row.v, balanceCents: row.balanceCents };
}

/**
 * Locks vouchers (in id order, so two checkouts spending the same two never deadlock) and answers
 * them with their balances read after the lock: every move that takes a balance down holds it.
 */
export async function lockVouchers(tx: Tx, ids: string[]): Promise<VoucherWithBalance[]> {
  if (ids.length === 0) return [];
  await tx
    .select({ id: vouchers.id })
    .from(vouchers)
    .where(inArray(vouchers.id, ids))
    .orderBy(asc(vouchers.id))
    .for('update');
  const rows = await tx.select({ v: vouchers, balanceCents: balance }).from(vouchers).where(inArray(vouchers.id, ids));
  return rows.map((r) => ({ ...r.v, balanceCents: r.balanceCents }));
}

/** What a family bought or has in its account, newest first. */
export async function vouchersOf(db: DbOrTx, userId: string): Promise<VoucherWithBalance[]> {
  const rows = await db
    .select({ v: vouchers, balanceCents: balance })
    .from(vouchers)
    .where(or(eq(vouchers.buyerUserId, userId), eq(vouchers.ownerUserId, userId)))
    .orderBy(desc(vouchers.createdAt));
  return rows.map((r) => ({ ...r.v, balanceCents: r.balanceCents }));
}

export async function updateVoucher(tx: DbOrTx, id: string, values: Partial<typeof vouchers.$inferInsert>) {
  await tx.update(vouchers).set(values).where(eq(vouchers.id, id));
}

export async function insertVoucherEntry(
  tx: Tx,
  e: {
    voucherId: string;
    cents: number;
    reason: VoucherEntryReason;
    orderId: string | null;
    bookingId: string | null;
    refundId: string | null;
    at: Date;
  },
): Promise<void> {
  await tx.insert(voucherEntries).values({
    voucherId: e.voucherId,
    cents: e.cents,
    reason: e.reason,
    orderId: e.orderId,
    bookingId: e.bookingId,
    refundId: e.refundId,
    createdAt: e.at,
  });
}

/** What each voucher still has out on an order: its spend less what came back (a lapse's or a refund's). */
export async function vouchersStillSpentOn(tx: Tx, orderId: string): Promise<{ voucherId: string; cents: number }[]> {
  const rows = await tx
    .select({ voucherId: voucherEntries.voucherId, cents: sql<number>`(-sum(${voucherEntries.cents}))::int` })
    .from(voucherEntries)
    .where(and(eq(voucherEntries.orderId, orderId), inArray(voucherEntries.reason, ['spent', 'returned'])))
    .groupBy(voucherEntries.voucherId)
    .orderBy(asc(voucherEntries.voucherId));
  return rows.filter((r) => r.cents > 0);
}

/** What a lapse gave back to each voucher an order spent (returns outside a refund), by voucher. */
export async function vouchersReturnedByLapse(
  tx: Tx,
  orderId: string,
): Promise<{ voucherId: string; cents: number }[]> {
  const rows = await tx
    .select({ voucherId: voucherEntries.voucherId, cents: sql<number>`sum(${voucherEntries.cents})::int` })
    .from(voucherEntries)
    .where(
      and(
        eq(voucherEntries.orderId, orderId),
        eq(voucherEntries.reason, 'returned'),
        sql`${voucherEntries.refundId} is null`,
      ),
    )
    .groupBy(voucherEntries.voucherId)
    .orderBy(asc(voucherEntries.voucherId));
  return rows.filter((r) => r.cents > 0);
}

/** A voucher's moves, oldest first (support's history). */
export async function entriesOf(db: DbOrTx, voucherId: string) {
  return db
    .select()
    .from(voucherEntries)
    .where(eq(voucherEntries.voucherId, voucherId))
    .orderBy(asc(voucherEntries.createdAt), asc(voucherEntries.id));
}

/** Wrong codes tried under any of `keys` since `since`, the most of any one key. */
export async function missesSince(db: DbOrTx, keys: string[], since: Date): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(voucherCodeMisses)
    .where(and(inArray(voucherCodeMisses.key, keys), gte(voucherCodeMisses.at, since)))
    .groupBy(voucherCodeMisses.key);
  return Math.max(0, ...rows.map((r) => r.n));
}

/** Counts a wrong code under each key; what is older than `prunedBefore` goes, so the table stays an hour long. */
export async function recordMiss(db: DbOrTx, keys: string[], at: Date, prunedBefore: Date): Promise<void> {
  await db.insert(voucherCodeMisses).values(keys.map((key) => ({ key, at })));
  await db.execute(sql`delete from voucher_code_misses where at < ${prunedBefore.toISOString()}::timestamptz`);
}

/** Support's search: the code's voucher, or those whose buyer or recipient matches `term` (e-mail or name). */
export async function searchVouchers(db: DbOrTx, hash: string, term: string, limit = 20) {
  const like = `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  const rows = await db.execute<{ id: string }>(sql`
    select v.id from vouchers v
    left join users b on b.id = v.buyer_user_id
    where v.code_hash = ${hash}
      or v.recipient_email ilike ${like} or v.recipient_name ilike ${like}
      or b.email ilike ${like} or (b.first_name || ' ' || b.last_name) ilike ${like}
    order by v.created_at desc limit ${limit}`);
  return rows.rows.map((r) => r.id);
}

/** The e-mails of accounts, by id (a voucher's buyer and owner for support). */
export async function emailsOf(db: DbOrTx, ids: string[]): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db.execute<{ id: string; email: string }>(
    sql`select id, email from users where id in (${sql.join(
      ids.map((id) => sql`${id}::uuid`),
      sql`, `,
    )})`,
  );
  return new Map(rows.rows.map((r) => [r.id, r.email]));
}

/**
 * Unpaid vouchers whose PaymentIntent is due a look at Stripe, claimed for `leaseUntil` (SKIP LOCKED:
 * several processes share the job). A sale that never came to a payment stops being read after a week.
 */
export async function claimVouchersToReconcile(
  db: DbOrTx,
  now: Date,
  leaseUntil: Date,
  limit: number,
): Promise<{ id: string; paymentIntentId: string; createdAt: Date }[]> {
  const result = await db.execute<{ id: string; payment_intent_id: string; created_at: string }>(sql`
    with due as (
      select id from vouchers
      where reconcile_at <= ${now.toISOString()}::timestamptz and status in ('pending', 'failed')
        and payment_intent_id is not null
      order by reconcile_at limit ${limit}
      for update skip locked
    )
    update vouchers v set reconcile_at = case
        when v.created_at < ${now.toISOString()}::timestamptz - interval '7 days' then null
        else ${leaseUntil.toISOString()}::timestamptz end
    from due where v.id = due.id
    returning v.id, v.payment_intent_id, v.created_at`);
  return result.rows.map((r) => ({
    id: r.id,
    paymentIntentId: r.payment_intent_id,
    createdAt: new Date(r.created_at),
  }));
}
