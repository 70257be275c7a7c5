import { and, eq, isNull, not, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { refreshTokens } from '../../db/schema/accounts';

/**
 * NOTIFY'd with a user id when refresh tokens of theirs are revoked; live streams listen
 * (availability/live-stream-limits.ts).
 */
export const SIGNED_OUT_CHANNEL = 'kringle_signed_out';

export type RefreshTokenRow = typeof refreshTokens.$inferSelect;

export async function insertRefreshToken(
  db: DbOrTx,
  values: { userId: string; familyId: string; tokenHash: string; expiresAt: Date; createdAt: Date; amr?: string[] },
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
  const revoked = await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
    .returning({ userId: refreshTokens.userId });
  if (revoked[0]) await notifySignedOut(db, revoked[0].userId);
}

/**
 * Every API process ends the account's live streams (live-stream-limits.ts): an ID token carries
 * no family, so all of the account's streams end; the others reopen with their refreshed token.
 * Delivered at commit when inside a transaction.
 */
async function notifySignedOut(db: DbOrTx, userId: string): Promise<void> {
  await db.execute(sql`select pg_notify(${SIGNED_OUT_CHANNEL}, ${userId})`);
}

export async function revokeAllForUser(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt)));
  await notifySignedOut(db, userId);
}

/** The factor a session proves with a second-factor code (RFC 8176 `amr`, decision 0080). */
export const SECOND_FACTOR_AMR = 'otp';
export const PASSWORD_AMR = ['pwd'];
export const TWO_FACTOR_AMR = ['pwd', SECOND_FACTOR_AMR];

/**
 * The family passed the second factor now (enrolment's first code): its rows say so. False if it is not the account's,
 * or ended.
 */
export async function markFamilyTwoFactor(db: DbOrTx, userId: string, familyId: string): Promise<boolean> {
  const rows = await db
    .update(refreshTokens)
    .set({ amr: TWO_FACTOR_AMR })
    .where(and(eq(refreshTokens.userId, userId), eq(refreshTokens.familyId, familyId), isNull(refreshTokens.revokedAt)))
    .returning({ id: refreshTokens.id });
  return rows.length > 0;
}

/** Revokes every family of the account that never passed the second factor (decision 0080). */
export async function revokePasswordOnlyForUser(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db
    .update(refreshTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(refreshTokens.userId, userId),
        isNull(refreshTokens.revokedAt),
        not(sql`${SECOND_FACTOR_AMR} = any(${refreshTokens.amr})`),
      ),
    );
  await notifySignedOut(db, userId);
}
