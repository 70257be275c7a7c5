import { and, eq, isNull, lte, or, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { locations } from '../../db/schema/catalogue';

export type UserRow = typeof users.$inferSelect;
export type NewUserRow = typeof users.$inferInsert;
export type UserProfilePatch = Partial<
  Pick<UserRow, 'firstName' | 'lastName' | 'phone' | 'preferredLocationId' | 'smsReminders'>
>;

export async function findUserById(db: DbOrTx, id: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.id, id));
  return row ?? null;
}

/** `email` must already be normalised (contracts' emailSchema does it). */
export async function findUserByEmail(db: DbOrTx, email: string): Promise<UserRow | null> {
  const [row] = await db.select().from(users).where(eq(users.email, email));
  return row ?? null;
}

/** Inserts the user, or returns null when the e-mail is taken (unique index, race-safe). */
export async function insertUser(db: DbOrTx, values: NewUserRow): Promise<UserRow | null> {
  const [row] = await db.insert(users).values(values).onConflictDoNothing({ target: users.email }).returning();
  return row ?? null;
}

export async function updateUserProfile(
  db: DbOrTx,
  id: string,
  patch: UserProfilePatch,
  now: Date,
): Promise<UserRow | null> {
  const [row] = await db
    .update(users)
    .set({ ...patch, updatedAt: now })
    .where(eq(users.id, id))
    .returning();
  return row ?? null;
}

export async function markEmailVerified(db: DbOrTx, id: string, now: Date): Promise<void> {
  await db
    .update(users)
    .set({
      emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now.toISOString()}::timestamptz)`,
      updatedAt: now,
    })
    .where(eq(users.id, id));
}

export async function updatePasswordHash(db: DbOrTx, id: string, passwordHash: string, now: Date): Promise<void> {
  await db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, id));
}

/**
 * Claims the user's verification-mail slot: sets `verification_sent_at` only when the last one
 * is older than `notBefore`. Atomic, so two concurrent requests cannot both send.
 */
export async function claimVerificationSlot(db: DbOrTx, id: string, now: Date, notBefore: Date): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ verificationSentAt: now })
    .where(and(eq(users.id, id), or(isNull(users.verificationSentAt), lte(users.verificationSentAt, notBefore))))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** A preferred location must be one the catalogue knows. */
export async function locationExists(db: DbOrTx, id: string): Promise<boolean> {
  const rows = await db.select({ id: locations.id }).from(locations).where(eq(locations.id, id));
  return rows.length > 0;
}

export async function recordSignIn(db: DbOrTx, id: string, now: Date): Promise<void> {
  await db.update(users).set({ lastSignInAt: now }).where(eq(users.id, id));
}

/** The user row, locked until the transaction ends: changes of the account's address queue here. */
export async function lockUser(tx: DbOrTx, id: string): Promise<UserRow | null> {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update');
  return row ?? null;
}

/**
 * Moves the account to `email` and notes the verification mail sent to it now (one a minute, as
 * a re-send). Throws PostgreSQL's unique violation (23505) when another account has the address.
 */
export async function changeEmail(tx: DbOrTx, id: string, email: string, now: Date): Promise<UserRow> {
  const [row] = await tx
    .update(users)
    .set({ email, verificationSentAt: now, updatedAt: now })
    .where(eq(users.id, id))
    .returning();
  return row!;
}
