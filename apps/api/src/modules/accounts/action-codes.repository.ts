import { and, eq, gt, isNull } from 'drizzle-orm';
import type { ActionMode } from '@kringle/contracts/accounts';
import type { DbOrTx } from '../../db/client';
import { actionCodes } from '../../db/schema/accounts';

export type ActionCodeRow = typeof actionCodes.$inferSelect;

export async function insertActionCode(
  db: DbOrTx,
  values: { userId: string; mode: ActionMode; codeHash: string; expiresAt: Date; createdAt: Date },
): Promise<void> {
  await db.insert(actionCodes).values(values);
}

export async function findActionCode(db: DbOrTx, codeHash: string): Promise<ActionCodeRow | null> {
  const [row] = await db.select().from(actionCodes).where(eq(actionCodes.codeHash, codeHash));
  return row ?? null;
}

/** Uses the code once: only one caller can win, however many race (returns false for the others). */
export async function consumeActionCode(db: DbOrTx, id: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(actionCodes)
    .set({ usedAt: now })
    .where(and(eq(actionCodes.id, id), isNull(actionCodes.usedAt), gt(actionCodes.expiresAt, now)))
    .returning({ id: actionCodes.id });
  return rows.length > 0;
}

/**
 * Voids every unused code of that mode for the user (a new reset link replaces older ones), or of
 * every mode when none is given (the address changed: decision 0068).
 */
export async function voidActionCodes(db: DbOrTx, userId: string, mode: ActionMode | null, now: Date): Promise<void> {
  await db
    .update(actionCodes)
    .set({ usedAt: now })
    .where(
      and(eq(actionCodes.userId, userId), mode ? eq(actionCodes.mode, mode) : undefined, isNull(actionCodes.usedAt)),
    );
}

/**
 * Locks the user's unused codes, in the order a code's use takes its locks (the code, then the
 * user row): a change of address that locked the user first could deadlock with a link being used.
 */
export async function lockUnusedActionCodes(tx: DbOrTx, userId: string): Promise<void> {
  await tx
    .select({ id: actionCodes.id })
    .from(actionCodes)
    .where(and(eq(actionCodes.userId, userId), isNull(actionCodes.usedAt)))
    .orderBy(actionCodes.id)
    .for('update');
}
