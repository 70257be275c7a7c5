import { and, asc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { StaffRole } from '@kringle/contracts/staff-roles';
import type { DbOrTx } from '../../db/client';
import { mfaChallenges, staffInvitations, staffRecoveryCodes, users } from '../../db/schema/accounts';
import { locations } from '../../db/schema/catalogue';
import type { UserRow } from '../accounts/users.repository';

/** Staff accounts, invitations, recovery codes and sign-in challenges (decision 0050). */

/** Every staff account, by e-mail, with whether its invitation is still to be accepted (a few dozen rows). */
export async function listStaff(db: DbOrTx): Promise<(UserRow & { invitationPending: boolean })[]> {
  const [rows, invitations] = await Promise.all([
    db.select().from(users).where(eq(users.isStaff, true)).orderBy(asc(users.email)),
    db.select({ userId: staffInvitations.userId, usedAt: staffInvitations.usedAt }).from(staffInvitations),
  ]);
  return rows.map((row) => ({ ...row, invitationPending: pendingOf(invitations.filter((i) => i.userId === row.id)) }));
}

/** Invited and never accepted: some invitation, none used (a replaced one counts as used, but never alone). */
const pendingOf = (invitations: { usedAt: Date | null }[]) =>
  invitations.length > 0 && invitations.some((i) => i.usedAt === null);

export async function isInvitationPending(db: DbOrTx, userId: string): Promise<boolean> {
  return pendingOf(
    await db
      .select({ usedAt: staffInvitations.usedAt })
      .from(staffInvitations)
      .where(eq(staffInvitations.userId, userId)),
  );
}

export async function lockStaff(db: DbOrTx, id: string): Promise<UserRow | null> {
  const [row] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, id), eq(users.isStaff, true)))
    .for('update');
  return row ?? null;
}

export async function updateStaff(
  db: DbOrTx,
  id: string,
  patch: { staffRole?: StaffRole; locationIds?: string[]; active?: boolean },
  now: Date,
): Promise<UserRow> {
  const [row] = await db
    .update(users)
    .set({ ...patch, updatedAt: now })
    .where(eq(users.id, id))
    .returning();
  return row!;
}

/** The ids among `ids` that name no location (a typo or a deleted one). */
export async function unknownLocations(db: DbOrTx, ids: string[]): Promise<string[]> {
  if (ids.length === 0) return [];
  const known = await db.select({ id: locations.id }).from(locations);
  const set = new Set(known.map((l) => l.id));
  return ids.filter((id) => !set.has(id));
}

export async function locationIdsBySlug(db: DbOrTx, slugs: string[]): Promise<Map<string, string>> {
  const rows = await db.select({ id: locations.id, slug: locations.slug }).from(locations);
  return new Map(rows.filter((r) => slugs.includes(r.slug)).map((r) => [r.slug, r.id]));
}

export async function insertInvitation(
  db: DbOrTx,
  values: { userId: string; codeHash: string; expiresAt: Date; createdAt: Date },
): Promise<void> {
  // A new invitation replaces the older ones of the same account.
  await db
    .update(staffInvitations)
    .set({ usedAt: values.createdAt })
    .where(and(eq(staffInvitations.userId, values.userId), isNull(staffInvitations.usedAt)));
  await db.insert(staffInvitations).values(values);
}

/** Uses the invitation once (race-safe); the account's id, or null when unknown, used or expired. */
export async function consumeInvitation(db: DbOrTx, codeHash: string, now: Date): Promise<string | null> {
  const [row] = await db
    .update(staffInvitations)
    .set({ usedAt: now })
    .where(
      and(
        eq(staffInvitations.codeHash, codeHash),
        isNull(staffInvitations.usedAt),
        gt(staffInvitations.expiresAt, now),
      ),
    )
    .returning({ userId: staffInvitations.userId });
  return row?.userId ?? null;
}

export async function setMfaSecret(db: DbOrTx, userId: string, sealed: string, now: Date): Promise<void> {
  await db
    .update(users)
    .set({ mfaSecret: sealed, updatedAt: now })
    .where(and(eq(users.id, userId), isNull(users.mfaEnrolledAt)));
}

export async function markMfaEnrolled(db: DbOrTx, userId: string, step: number, now: Date): Promise<void> {
  await db.update(users).set({ mfaEnrolledAt: now, mfaLastStep: step, updatedAt: now }).where(eq(users.id, userId));
}

/** Accepts a TOTP time step only if it is later than the last one accepted (a code works once). */
export async function claimMfaStep(db: DbOrTx, userId: string, step: number): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ mfaLastStep: step })
    .where(and(eq(users.id, userId), sql`coalesce(${users.mfaLastStep}, -1) < ${step}`))
    .returning({ id: users.id });
  return rows.length > 0;
}

export async function replaceRecoveryCodes(db: DbOrTx, userId: string, hashes: string[], now: Date): Promise<void> {
  await db.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
  await db.insert(staffRecoveryCodes).values(hashes.map((codeHash) => ({ userId, codeHash, createdAt: now })));
}

/** Uses one recovery code (race-safe): false when unknown or already used. */
export async function consumeRecoveryCode(db: DbOrTx, userId: string, codeHash: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(staffRecoveryCodes)
    .set({ usedAt: now })
    .where(
      and(
        eq(staffRecoveryCodes.userId, userId),
        eq(staffRecoveryCodes.codeHash, codeHash),
        isNull(staffRecoveryCodes.usedAt),
      ),
    )
    .returning({ id: staffRecoveryCodes.id });
  return rows.length > 0;
}

export async function insertMfaChallenge(
  db: DbOrTx,
  values: { userId: string; tokenHash: string; expiresAt: Date; createdAt: Date },
): Promise<void> {
  await db.insert(mfaChallenges).values(values);
}

/** Locks a live challenge (unused, unexpired), so two answers to one challenge are serialised. */
export async function lockLiveChallenge(
  db: DbOrTx,
  tokenHash: string,
  now: Date,
): Promise<{ id: string; userId: string } | null> {
  const [row] = await db
    .select({ id: mfaChallenges.id, userId: mfaChallenges.userId })
    .from(mfaChallenges)
    .where(and(eq(mfaChallenges.tokenHash, tokenHash), isNull(mfaChallenges.usedAt), gt(mfaChallenges.expiresAt, now)))
    .for('update');
  return row ?? null;
}

export async function markChallengeUsed(db: DbOrTx, id: string, now: Date): Promise<void> {
  await db.update(mfaChallenges).set({ usedAt: now }).where(eq(mfaChallenges.id, id));
}

/** Removes the second factor (secret, last step, recovery codes): the member enrols again. */
export async function resetMfa(db: DbOrTx, userId: string, now: Date): Promise<void> {
  await db
    .update(users)
    .set({
      mfaSecret: null,
      mfaEnrolledAt: null,
      mfaLastStep: null,
      mfaFailedCount: 0,
      mfaLockedUntil: null,
      updatedAt: now,
    })
    .where(eq(users.id, userId));
  await db.delete(staffRecoveryCodes).where(eq(staffRecoveryCodes.userId, userId));
}

/**
 * The consecutive wrong second-factor codes and the lock (issue 48 item 2); the row is locked by the caller
 * (lockStaff).
 */
export async function setMfaFailures(
  db: DbOrTx,
  userId: string,
  failedCount: number,
  lockedUntil: Date | null,
): Promise<void> {
  await db.update(users).set({ mfaFailedCount: failedCount, mfaLockedUntil: lockedUntil }).where(eq(users.id, userId));
}

/** Who is told of a second-factor lock besides the member: every active manager. */
export async function activeManagerEmails(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .select({ email: users.email })
    .from(users)
    .where(and(eq(users.isStaff, true), eq(users.staffRole, 'manager'), eq(users.active, true)))
    .orderBy(asc(users.email));
  return rows.map((r) => r.email);
}
