import { and, eq, gt, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { users } from '../../db/schema/accounts';
import { revokeAllForUser, revokePasswordOnlyForUser } from './refresh-tokens.repository';

/** NOTIFY'd with "<userId> <epoch> <endedAtMs>" when every session of an account ends (session-cutoffs.listener.ts). */
export const SESSIONS_ENDED_CHANNEL = 'kringle_sessions_ended';

export interface SessionsEnded {
  userId: string;
  epoch: number;
  endedAtMs: number;
}

/**
 * Ends every session of the account (decision 0063): its refresh tokens are revoked and its
 * session epoch raised, so ID tokens already issued are refused at once by every process. Run it
 * inside the transaction of the change that ends them; the NOTIFYs go out at its commit. The
 * caller hands the result to its own process's `SessionCutoffs.raise` once committed.
 */
export async function endAllSessions(db: DbOrTx, userId: string, now: Date): Promise<SessionsEnded> {
  await revokeAllForUser(db, userId, now);
  return raiseEpoch(db, userId, now);
}

/**
 * Ends the sessions that never passed the second factor (decision 0080): their families are
 * revoked, and the epoch is raised so every ID token already issued is refused at once; the
 * sessions that did pass it keep their family and get a token of the new epoch at their next
 * refresh (the staff app refreshes on a 401). Enrolment and a role change that needs the factor.
 */
export async function endPasswordOnlySessions(db: DbOrTx, userId: string, now: Date): Promise<SessionsEnded> {
  await revokePasswordOnlyForUser(db, userId, now);
  return raiseEpoch(db, userId, now);
}

async function raiseEpoch(db: DbOrTx, userId: string, now: Date): Promise<SessionsEnded> {
  const [row] = await db
    .update(users)
    .set({ sessionEpoch: sql`${users.sessionEpoch} + 1`, sessionsEndedAt: now })
    .where(eq(users.id, userId))
    .returning({ epoch: users.sessionEpoch });
  const ended = { userId, epoch: row?.epoch ?? 0, endedAtMs: now.getTime() };
  await db.execute(sql`select pg_notify(${SESSIONS_ENDED_CHANNEL}, ${`${userId} ${ended.epoch} ${ended.endedAtMs}`})`);
  return ended;
}

/** The accounts whose sessions ended after `since` (users_sessions_ended_idx): a reload or a poll. */
export async function sessionsEndedSince(db: DbOrTx, since: Date): Promise<SessionsEnded[]> {
  const rows = await db
    .select({ userId: users.id, epoch: users.sessionEpoch, endedAt: users.sessionsEndedAt })
    .from(users)
    .where(and(isNotNull(users.sessionsEndedAt), gt(users.sessionsEndedAt, since)));
  return rows.map((r) => ({ userId: r.userId, epoch: r.epoch, endedAtMs: r.endedAt!.getTime() }));
}
