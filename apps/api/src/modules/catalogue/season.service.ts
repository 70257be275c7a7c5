import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { seasonSchema, describeSeasonErrors, type Season } from './season.schema';
import { syncProducts, syncSlots, upsertLocation, upsertSlotType, type SlotSyncResult } from './season.repository';
import { planLocationSlots } from './slot-planner';

export class SeasonFileError extends Error {
  constructor(readonly problems: string[]) {
    super(`The season file has ${problems.length} problem(s):\n  ${problems.join('\n  ')}`);
  }
}

export function parseSeason(input: unknown): Season {
  const parsed = seasonSchema.safeParse(input);
  if (!parsed.success) throw new SeasonFileError(describeSeasonErrors(parsed.error));
  return parsed.data;
}

export interface SeasonLoadReport {
  locations: { slug: string; slots: SlotSyncResult }[];
  packages: number;
  addOns: number;
}

/**
 * Loads a season in one transaction, under an advisory lock so two loads never interleave.
 * Safe to run again: everything is keyed by slug, and booked or held sessions are left alone.
 */
export async function loadSeason(db: Db, input: unknown, now = new Date()): Promise<SeasonLoadReport> {
  const season = parseSeason(input);
  return db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(7426002)`);
    await syncProducts(tx, season);
    const report: SeasonLoadReport = { locations: [], packages: season.packages.length, addOns: season.addOns.length };
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
  });
}
