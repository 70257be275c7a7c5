import { sql } from 'drizzle-orm';
import type { SeasonPreview } from '@kringle/contracts/season-editor';
import { seasonSchema, describeSeasonErrors, type Season } from '@kringle/contracts/season';
import type { Db, Tx } from '../../db/client';
import { diffSeason } from './season-diff';
import { syncProducts, upsertLocation, upsertSlotType } from './season.repository';
import { syncSlots, type SlotSyncResult } from '../sessions/slot-row.repository';
import { recordVersion, SYSTEM_SAVER, type SeasonSaver } from './season-versions.repository';
import { planLocationSlots } from './slot-planner';

export class SeasonFileError extends Error {
  constructor(
    readonly problems: string[],
    readonly details: { path: string; message: string }[] = [],
  ) {
    super(`The season file has ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
  }
}

/** The one check of a season file, for the CLI and the editor alike: the same messages from both. */
export function parseSeason(input: unknown): Season {
  const parsed = seasonSchema.safeParse(input);
  if (!parsed.success) {
    const details = parsed.error.issues.map((i) => ({ path: i.path.join('.') || '(file)', message: i.message }));
    throw new SeasonFileError(describeSeasonErrors(parsed.error), details);
  }
  return parsed.data;
}

export interface SeasonLoadReport {
  locations: { slug: string; slots: SlotSyncResult }[];
  packages: number;
  addOns: number;
  /** The live version after the load (the same one when the file had not changed). */
  version: number;
  preview: SeasonPreview;
}

/** Every load and save takes this lock first, so two never interleave and versions stay in order. */
export async function lockSeason(tx: Tx): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(7426002)`);
}

async function applySeason(tx: Tx, season: Season, now: Date): Promise<Omit<SeasonLoadReport, 'version' | 'preview'>> {
  await syncProducts(tx, season);
  const report = {
    locations: [] as SeasonLoadReport['locations'],
    packages: season.packages.length,
    addOns: season.addOns.length,
  };
  for (const [li, loc] of season.locations.entries()) {
    const locationId = await upsertLocation(tx, loc, li);
    const typeIds = new Map<string, string>();
    const used = new Set(loc.sessions.map((s) => s.slotType));
    for (const [ti, type] of season.slotTypes.entries()) {
      if (used.has(type.slug)) typeIds.set(type.slug, await upsertSlotType(tx, locationId, type, ti));
    }
    const plan = planLocationSlots(loc, season.slotTypes);
    report.locations.push({ slug: loc.slug, slots: await syncSlots(tx, locationId, typeIds, plan, now) });
  }
  return report;
}

/**
 * Loads a checked season inside the caller's transaction (after lockSeason) and records it as a
 * version. With `refuseBooked` (the editor) a change that touches a booked or held session is not
 * applied and the conflicts come back instead; without it (the CLI) such sessions are kept but
 * taken out of sale, as the loader always did.
 */
export async function commitSeason(
  tx: Tx,
  file: unknown,
  season: Season,
  opts: { by: SeasonSaver; now: Date; refuseBooked: boolean },
): Promise<{ applied: false; preview: SeasonPreview } | { applied: true; report: SeasonLoadReport }> {
  const preview = await diffSeason(tx, season, opts.now);
  if (opts.refuseBooked && preview.conflicts.length) return { applied: false, preview };
  const applied = await applySeason(tx, season, opts.now);
  const { sessionsAdded, sessionsRemoved, sessionsChanged } = preview;
  const version = await recordVersion(tx, file, opts.by, { sessionsAdded, sessionsRemoved, sessionsChanged }, opts.now);
  return { applied: true, report: { ...applied, version, preview } };
}

/**
 * Loads a season file (the CLI, the demo season at start-up) in one transaction. Safe to run
 * again: everything is keyed by slug, and booked or held sessions are left alone.
 */
export async function loadSeason(
  db: Db,
  input: unknown,
  now = new Date(),
  by: SeasonSaver = SYSTEM_SAVER,
): Promise<SeasonLoadReport> {
  const season = parseSeason(input);
  return db.transaction(async (tx) => {
    await lockSeason(tx);
    const result = await commitSeason(tx, input, season, { by, now, refuseBooked: false });
    if (!result.applied) throw new Error('unreachable: the loader never refuses');
    return result.report;
  });
}
