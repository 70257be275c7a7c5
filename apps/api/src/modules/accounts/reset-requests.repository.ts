import { eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client';
import { passwordResetRequests } from '../../db/schema/accounts';

export type ResetRequestRow = typeof passwordResetRequests.$inferSelect;

/** One INSERT, the same for every e-mail, known or not (the answer's timing reveals nothing). */
export async function insertResetRequest(
  db: Db,
  values: { email: string; origin: string; requestedAt: Date },
): Promise<void> {
  await db.insert(passwordResetRequests).values({ ...values, nextAttemptAt: values.requestedAt });
}

/**
 * Locks the oldest due request for the caller's transaction. SKIP LOCKED: another process
 * working on a request does not stop this one taking the next.
 */
export async function claimDueResetRequest(tx: Tx, now: Date): Promise<ResetRequestRow | null> {
  const [row] = await tx
    .select()
    .from(passwordResetRequests)
    .where(sql`${passwordResetRequests.nextAttemptAt} <= ${now}`)
    .orderBy(passwordResetRequests.requestedAt)
    .limit(1)
    .for('update', { skipLocked: true });
  return row ?? null;
}

export async function deleteResetRequest(db: DbOrTx, id: string): Promise<void> {
  await db.delete(passwordResetRequests).where(eq(passwordResetRequests.id, id));
}

export async function markResetRequestFailed(db: Db, id: string, error: string, retryAt: Date): Promise<void> {
  await db
    .update(passwordResetRequests)
    .set({
      attempts: sql`${passwordResetRequests.attempts} + 1`,
      lastError: error.slice(0, 500),
      nextAttemptAt: retryAt,
    })
    .where(eq(passwordResetRequests.id, id));
}
