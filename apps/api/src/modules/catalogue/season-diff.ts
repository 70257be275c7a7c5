import { seasonSchema, type Season } from '@kringle/contracts/season';
import type { SeasonConflict, SeasonPreview } from '@kringle/contracts/season-editor';
import type { DbOrTx } from '../../db/client';
import { diffSeasonFiles } from './season-file-diff';
import { futureSlotsOf, type ExistingSlot } from './season.repository';
import { liveVersion } from './season-versions.repository';
import { planLocationSlots, type PlannedSlot } from './slot-planner';

const keyOf = (location: string, slotType: string, startAt: Date) => `${location}|${slotType}|${startAt.toISOString()}`;

/** A family's session whose time the change would alter (a longer one too: the family bought that time). */
const altered = (old: ExistingSlot, planned: PlannedSlot) =>
  old.kind !== planned.kind || old.endAt.getTime() !== planned.endAt.getTime();

/**
 * What loading `season` would do to the future sessions of its locations, read but never written:
 * the preview, the save's refusal and the versions' counts all come from here. A slot is one
 * (location, session type, start), as the loader keys it; breaks only count when a session
 * becomes one or the other way round.
 */
export async function diffSeason(db: DbOrTx, season: Season, now: Date): Promise<SeasonPreview> {
  const live = await liveVersion(db);
  const before = live ? seasonSchema.safeParse(live.season) : null;
  const planned = new Map<string, PlannedSlot>();
  for (const loc of season.locations) {
    for (const slot of planLocationSlots(loc, season.slotTypes)) {
      if (slot.startAt >= now) planned.set(keyOf(loc.slug, slot.slotTypeSlug, slot.startAt), slot);
    }
  }
  const existing = await futureSlotsOf(
    db,
    season.locations.map((l) => l.slug),
    now,
  );
  const changes = diffSeasonFiles(before?.success ? before.data : null, season);
  const preview: SeasonPreview = { sessionsAdded: 0, sessionsRemoved: 0, sessionsChanged: 0, conflicts: [], changes };
  const conflict = (old: ExistingSlot, change: SeasonConflict['change']) => {
    if (old.bookingId || old.held) {
      preview.conflicts.push({
        slotId: old.id,
        bookingId: old.bookingId,
        reference: old.reference,
        location: old.location,
        startAt: old.startAt.toISOString(),
        change,
      });
    }
  };
  for (const old of existing) {
    const key = keyOf(old.location, old.slotType, old.startAt);
    const next = planned.get(key);
    planned.delete(key);
    if (!next) {
      if (old.kind === 'session') preview.sessionsRemoved++;
      conflict(old, 'removed');
    } else if (altered(old, next)) {
      preview.sessionsChanged++;
      conflict(old, 'changed');
    }
  }
  for (const slot of planned.values()) if (slot.kind === 'session') preview.sessionsAdded++;
  preview.conflicts.sort((a, b) => a.startAt.localeCompare(b.startAt) || a.location.localeCompare(b.location));
  return preview;
}
