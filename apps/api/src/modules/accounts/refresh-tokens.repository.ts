import { and, eq, isNull } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { refreshTokens } from '../../db/schema/accounts';

export type RefreshTokenRow = typeof refreshTokens.$inferSelect;

export async function insertRefreshToken(
  db: DbOrTx,
  values: { userId: string; familyId: string; tokenHash: string; expiresAt: Date; createdAt: Date },
): Promise<void> {
  await db.insert(refreshTokens).values(values);
}

/** Locks the row, so two concurrent refreshes with one token are serialised (the second is a replay). */
export async function findRefreshTokenForUpdate(db: DbOrTx, tokenHash: string): Promise<RefreshTokenRow | null> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash)).for('update');
  return row ?? null;
}

export async function findRefreshToken(db: DbOrTx, tokenHash: string): Promise<RefreshTokenRow | null> {
  const [row] = await db.select().from(refreshTokens).where(eq(refreshTokens.tokenHash, tokenHash));
  return row ?? null;
}

/** Called with the row locked (findRefreshTokenForUpdate), so rotation happens once per token. */
export async function markRotated(db: DbOrTx, id: string, now: Date, successorSealed: string): Promise<void> {
  await db.update(refreshTokens).set({ rotatedAt: now, successorSealed }).where(eq(refreshTokens.id, id));
}

export async function revokeFamily(db: DbOrTx, familyId: string, now: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)));
}

export async function revokeAllForUser(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
}
