import { desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { seasonVersions } from '../../db/schema/season-versions';
import { insertAuditEntry } from '../audit-trail/audit-entries.repository';

/** Who saved a version: a manager in the editor, or `system` (the CLI, the demo season at start-up). */
export interface SeasonSaver {
  kind: 'staff' | 'system';
  id: string | null;
  email: string | null;
}
export const SYSTEM_SAVER: SeasonSaver = { kind: 'system', id: null, email: null };

export type SeasonVersionRow = typeof seasonVersions.$inferSelect;
export interface SessionCounts {
  sessionsAdded: number;
  sessionsRemoved: number;
  sessionsChanged: number;
}

/** The live version's number (0 before any), its row locked until the transaction ends. */
export async function lockLiveVersion(tx: Tx): Promise<number> {
  const [row] = await tx
    .select({ version: seasonVersions.version })
    .from(seasonVersions)
    .orderBy(desc(seasonVersions.version))
    .limit(1)
    .for('update');
  return row?.version ?? 0;
}

/**
 * Records the file as the new live version, with its audit entry, unless it is the live one already
 * (the demo season is reloaded at every start; the same file twice is one version). Returns the
 * live version.
 */
export async function recordVersion(
  tx: Tx,
  file: unknown,
  by: SeasonSaver,
  counts: SessionCounts,
  at: Date,
): Promise<number> {
  const live = await lockLiveVersion(tx);
  const json = JSON.stringify(file);
  const same = await tx.execute(sql`select 1 from season_versions where version = ${live} and season = ${json}::jsonb`);
  if (same.rows.length) return live;
  await tx.insert(seasonVersions).values({
    version: live + 1,
    season: sql`${json}::jsonb`,
    savedAt: at,
    savedByKind: by.kind,
    savedById: by.id,
    savedByEmail: by.email,
    ...counts,
  });
  // A season's sessions changed: the trail says who saved which version (decision 0062).
  await insertAuditEntry(tx, {
    at,
    actor: by,
    action: 'saveSeason',
    bookingId: null,
    seasonVersion: live + 1,
    orderId: null,
    reason: null,
    before: { version: live },
    after: { version: live + 1, ...counts },
  });
  return live + 1;
}

export async function liveVersion(db: DbOrTx): Promise<SeasonVersionRow | undefined> {
  const [row] = await db.select().from(seasonVersions).orderBy(desc(seasonVersions.version)).limit(1);
  return row;
}

export async function versionRow(db: DbOrTx, version: number): Promise<SeasonVersionRow | undefined> {
  const [row] = await db.select().from(seasonVersions).where(eq(seasonVersions.version, version));
  return row;
}

/** Every version but its file, newest first. */
export async function listVersions(db: DbOrTx): Promise<Omit<SeasonVersionRow, 'season'>[]> {
  return db
    .select({
      version: seasonVersions.version,
      savedAt: seasonVersions.savedAt,
      savedByKind: seasonVersions.savedByKind,
      savedById: seasonVersions.savedById,
      savedByEmail: seasonVersions.savedByEmail,
      sessionsAdded: seasonVersions.sessionsAdded,
      sessionsRemoved: seasonVersions.sessionsRemoved,
      sessionsChanged: seasonVersions.sessionsChanged,
    })
    .from(seasonVersions)
    .orderBy(desc(seasonVersions.version));
}
