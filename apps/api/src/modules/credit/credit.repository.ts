import { CREDIT_CONSUMED, type CreditReason } from '@kringle/contracts/credit';
import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { creditEntries } from '../../db/schema/credit';

export type CreditEntryRow = typeof creditEntries.$inferSelect;

/**
 * A family's account credit (decision 0111): entries only ever added, the balance their sum. A move
 * that takes credit away holds `lockCredit` first, so two of them never take the same cents.
 */
export async function insertCreditEntry(
  tx: Tx,
  e: {
    userId: string;
    cents: number;
    reason: CreditReason;
    bookingId: string | null;
    orderId: string | null;
    refundId: string | null;
    expiresAt: Date | null;
    at: Date;
  },
): Promise<CreditEntryRow> {
  const [row] = await tx
    .insert(creditEntries)
    .values({
      userId: e.userId,
      cents: e.cents,
      reason: e.reason,
      bookingId: e.bookingId,
      orderId: e.orderId,
      refundId: e.refundId,
      expiresAt: e.expiresAt,
      createdAt: e.at,
    })
    .returning();
  return row!;
}

/** The family's entries, newest first, and their sum. */
export async function creditOf(db: DbOrTx, userId: string): Promise<{ balanceCents: number; items: CreditEntryRow[] }> {
  const items = await db
    .select()
    .from(creditEntries)
    .where(eq(creditEntries.userId, userId))
    .orderBy(desc(creditEntries.createdAt), desc(creditEntries.id));
  return { balanceCents: items.reduce((n, e) => n + e.cents, 0), items };
}

/** The families with credit whose time is up by `now` and is not yet entered as expired (credit-expiry.ts's rule). */
export async function familiesWithCreditDue(db: DbOrTx, now: Date): Promise<string[]> {
  const consumed = sql.join(
    CREDIT_CONSUMED.map((r) => sql`${r}`),
    sql`, `,
  );
  const { rows } = await db.execute(sql`
    select user_id from credit_entries
    where user_id in (select user_id from credit_entries where expires_at <= ${now.toISOString()}::timestamptz)
    group by user_id
    having coalesce(sum(cents) filter (where cents > 0 and expires_at <= ${now.toISOString()}::timestamptz), 0)
      > coalesce(-sum(cents) filter (where reason in (${consumed})), 0)`);
  return rows.map((r) => r.user_id as string);
}

/** Serialises the moves that take a family's credit away (a transaction-scoped advisory lock). */
export async function lockCredit(tx: Tx, userId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended('credit:' || ${userId}::text, 0))`);
}

/** The credit that came from refunds of card payments, newest first: what may go back to a card. */
export async function creditFromCardRefunds(tx: Tx, userId: string): Promise<CreditEntryRow[]> {
  return tx
    .select()
    .from(creditEntries)
    .where(
      and(
        eq(creditEntries.userId, userId),
        isNotNull(creditEntries.refundId),
        inArray(creditEntries.reason, ['cancel_refund', 'closure_refund']),
      ),
    )
    .orderBy(desc(creditEntries.createdAt), desc(creditEntries.id));
}

/** The credit an order spent and has not had back outside a refund (a lapse's return): its ledger's sum, negated. */
export async function creditStillSpentOn(tx: Tx, orderId: string): Promise<{ userId: string; cents: number } | null> {
  const [row] = await tx
    .select({ userId: creditEntries.userId, cents: sql<number>`(-sum(${creditEntries.cents}))::int` })
    .from(creditEntries)
    .where(and(eq(creditEntries.orderId, orderId), inArray(creditEntries.reason, ['spent', 'returned'])))
    .groupBy(creditEntries.userId);
  return row && row.cents > 0 ? row : null;
}
