import type { Tx } from '../../db/client';
import { errors, waitText } from '../../lib/errors';
import type { UserRow } from '../accounts/users.repository';
import { insertAuditEntry, SYSTEM } from '../audit-trail/audit-entries.repository';
import { enqueueMail } from '../mail/outbox.repository';
import { mfaLockedMails } from './mfa-lock.email';
import * as repo from './staff-accounts.repository';

/**
 * The per-account limit on second-factor guesses (issue 48 item 2, decision 0080, NIST SP 800-63B 5.2.2): the
 * per-address and per-mfaToken limits of POST /auth/mfa do not bound an account, whose attacker
 * can take a new mfaToken from each sign-in and a new address from each proxy. The count lives on
 * the account's row, read and written under its row lock (lockStaff), so every mfaToken, address
 * and API process shares it.
 */
export const MFA_LOCK_AFTER = 10;
export const MFA_LOCK_MS = 15 * 60 * 1000;

/** Locked now: 429 RATE_LIMITED (API.md's limit answer), `Retry-After` and the time in words. */
export function mfaLockedError(lockedUntil: Date, now: Date) {
  const seconds = Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000));
  return errors.rateLimited(
    `Too many wrong codes for this account: it accepts no code, recovery codes included, for ` +
      `${waitText(seconds)}. Try again after ${lockedUntil.toISOString().slice(11, 16)} UTC.`,
    seconds,
  );
}

/** Until when the account accepts no code, or null. */
export const lockedUntil = (user: Pick<UserRow, 'mfaLockedUntil'>, now: Date): Date | null =>
  user.mfaLockedUntil && user.mfaLockedUntil > now ? user.mfaLockedUntil : null;

/**
 * Counts a wrong code (the row is locked). The MFA_LOCK_AFTER-th in a row locks the account for
 * MFA_LOCK_MS, and in the same transaction tells the member and every active manager (the mail
 * outbox) and writes `staff.mfa_locked` to the audit trail. Answers the lock's end when it locked.
 */
export async function countWrongCode(tx: Tx, user: UserRow, now: Date, brandName: string): Promise<Date | null> {
  const failures = user.mfaFailedCount + 1;
  if (failures < MFA_LOCK_AFTER) {
    await repo.setMfaFailures(tx, user.id, failures, user.mfaLockedUntil);
    return null;
  }
  const until = new Date(now.getTime() + MFA_LOCK_MS);
  // The count starts again: after the lock, another MFA_LOCK_AFTER wrong codes lock it again.
  await repo.setMfaFailures(tx, user.id, 0, until);
  const managers = await repo.activeManagerEmails(tx);
  for (const mail of mfaLockedMails({ brandName, member: user.email, managers, lockedUntil: until, failures }))
    await enqueueMail(tx, mail);
  await insertAuditEntry(tx, {
    at: now,
    actor: SYSTEM,
    action: 'staff.mfa_locked',
    bookingId: null,
    orderId: null,
    reason: `${failures} wrong second-factor codes in a row`,
    before: { staffId: user.id, email: user.email, failedCodes: failures - 1 },
    after: { staffId: user.id, email: user.email, failedCodes: failures, lockedUntil: until.toISOString() },
  });
  return until;
}

/** A right code: the count starts again (only written when there is one to clear). */
export async function clearWrongCodes(tx: Tx, user: UserRow): Promise<void> {
  if (user.mfaFailedCount > 0) await repo.setMfaFailures(tx, user.id, 0, null);
}
