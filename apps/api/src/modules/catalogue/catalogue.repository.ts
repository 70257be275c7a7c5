import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { addOns, locations, packages, slotTypes } from '../../db/schema/catalogue';

export type LocationRow = typeof locations.$inferSelect;
export type SlotTypeRow = typeof slotTypes.$inferSelect;

export async function listLocations(db: DbOrTx): Promise<LocationRow[]> {
  return db.select().from(locations).orderBy(asc(locations.sortOrder), asc(locations.name));
}

export async function findLocation(db: DbOrTx, id: string): Promise<LocationRow | undefined> {
  const [row] = await db.select().from(locations).where(eq(locations.id, id));
  return row;
}

/** Slot types offered at the given locations that still have sessions ahead. */
export async function listSlotTypes(db: DbOrTx, locationIds: string[], now: Date): Promise<SlotTypeRow[]> {
  if (locationIds.length === 0) return [];
  return db
    .select()
    .from(slotTypes)
    .where(
      and(
        inArray(slotTypes.locationId, locationIds),
        sql`exists (select 1 from slots s where s.slot_type_id =
${slotTypes.id} and s.kind = 'session' and s.start_at > ${now.toISOString()}::timestamptz)`,
      ),
    )
    .orderBy(asc(slotTypes.sortOrder));
}

/**
 * A location and whether `slotTypeId` is one of its session types, in one round trip: every
 * availability answer starts here, and a hot one is computed again about every second.
 */
export async function findLocationWithType(
  db: DbOrTx,
  locationId: string,
  slotTypeId: string,
): Promise<{ location: LocationRow; typeFound: boolean } | undefined> {
  const [row] = await db
    .select({ location: locations, typeId: slotTypes.id })
    .from(locations)
    .leftJoin(slotTypes, and(eq(slotTypes.id, slotTypeId), eq(slotTypes.locationId, locations.id)))
    .where(eq(locations.id, locationId));
  return row && { location: row.location, typeFound: row.typeId !== null };
}

export async function findSlotType(db: DbOrTx, id: string): Promise<SlotTypeRow | undefined> {
  const [row] = await db.select().from(slotTypes).where(eq(slotTypes.id, id));
  return row;
}

/** Active packages, optionally only those offered for a slot type (by its slug). */
export async function listPackages(db: DbOrTx, slotTypeSlug?: string) {
  return db
    .select()
    .from(packages)
    .where(
      and(
        eq(packages.active, true),
        slotTypeSlug
          ? sql`(${packages.slotTypeSlugs} is null or ${packages.slotTypeSlugs} ? ${slotTypeSlug})`
          : undefined,
      ),
    )
    .orderBy(asc(packages.sortOrder));
}

export async function listAddOns(db: DbOrTx) {
  return db.select().from(addOns).where(eq(addOns.active, true)).orderBy(asc(addOns.sortOrder));
}
