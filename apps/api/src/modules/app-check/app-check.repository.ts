import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';

/**
 * Records a solved challenge as spent. True the first time only: the primary key makes two
 * concurrent exchanges of one solution race to a single winner, in any number of processes.
 */
export async function markChallengeUsed(db: Db, signature: string, expiresAt: Date): Promise<boolean> {
  const result = await db.execute(sql`
    insert into app_check_used_challenges (signature, expires_at)
    values (${signature}, ${expiresAt.toISOString()}::timestamptz)
    on conflict (signature) do nothing`);
  return (result.rowCount ?? 0) === 1;
}

/** Spent challenges are only needed until they would have expired anyway. */
export async function deleteExpiredChallenges(db: Db, now: Date): Promise<void> {
  await db.execute(sql`delete from app_check_used_challenges where expires_at < ${now.toISOString()}::timestamptz`);
}
