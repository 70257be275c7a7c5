import type { SeasonConflict, SeasonPreview, SeasonSaved, SeasonVersion } from '@kringle/contracts/season-editor';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { errors } from '../../lib/errors';
import { diffSeason } from '../catalogue/season-diff';
import { commitSeason, lockSeason, parseSeason, SeasonFileError } from '../catalogue/season.service';
import {
  listVersions,
  liveVersion,
  lockLiveVersion,
  versionRow,
  type SeasonVersionRow,
} from '../catalogue/season-versions.repository';

/** The CLI's own words for a bad file: its message, and one detail per problem. */
function checked(input: unknown) {
  try {
    return parseSeason(input);
  } catch (err) {
    if (err instanceof SeasonFileError) throw errors.validation(err.details, err.message);
    throw err;
  }
}

const toVersion = (r: Omit<SeasonVersionRow, 'season'>, live: number): SeasonVersion => ({
  version: r.version,
  savedAt: r.savedAt.toISOString(),
  savedBy: { kind: r.savedByKind, id: r.savedById, email: r.savedByEmail },
  live: r.version === live,
  sessionsAdded: r.sessionsAdded,
  sessionsRemoved: r.sessionsRemoved,
  sessionsChanged: r.sessionsChanged,
});

export type SaveOutcome = { saved: SeasonSaved } | { conflicts: SeasonConflict[] };

/**
 * The season editor (issue 35, decision 0056): the season:load CLI's parse and apply, with a
 * version check and a refusal where the CLI would quietly take booked sessions out of sale.
 */
export class SeasonEditorService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  async live(): Promise<{ version: number; season: unknown }> {
    const row = await liveVersion(this.db);
    if (!row) throw errors.notFound('A saved season');
    return { version: row.version, season: row.season };
  }

  async versions(): Promise<SeasonVersion[]> {
    const rows = await listVersions(this.db);
    return rows.map((r) => toVersion(r, rows[0]!.version));
  }

  async version(version: number): Promise<unknown> {
    const row = await versionRow(this.db, version);
    if (!row) throw errors.notFound('That season version');
    return row.season;
  }

  /** What saving would do, in a read-only transaction: nothing is written, whatever happens. */
  async preview(input: unknown): Promise<SeasonPreview> {
    const season = checked(input);
    return this.db.transaction(async (tx) => diffSeason(tx, season, this.clock.now()), { accessMode: 'read only' });
  }

  /** `expected` is the version the manager edited (If-Match); another save since then is 412. */
  async save(input: unknown, expected: number | null, by: { userId: string; email: string }): Promise<SaveOutcome> {
    const season = checked(input);
    if (expected === null) throw errors.seasonVersionRequired();
    return this.db.transaction(async (tx) => {
      await lockSeason(tx);
      if ((await lockLiveVersion(tx)) !== expected) throw errors.seasonVersionStale();
      const result = await commitSeason(tx, input, season, {
        by: { kind: 'staff', id: by.userId, email: by.email },
        now: this.clock.now(),
        refuseBooked: true,
      });
      if (!result.applied) return { conflicts: result.preview.conflicts };
      const { version, preview } = result.report;
      return {
        saved: {
          version,
          sessionsAdded: preview.sessionsAdded,
          sessionsRemoved: preview.sessionsRemoved,
          sessionsChanged: preview.sessionsChanged,
        },
      };
    });
  }
}
