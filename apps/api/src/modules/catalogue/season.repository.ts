import { and, eq, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client';
import { addOns, locations, packages, slotTypes } from '../../db/schema/catalogue';
import {
  queueOpensMinutesBefore,
  salesOpenInstant,
  storedDigitalPhotos,
  type Season,
  type SeasonLocation,
} from '@kringle/contracts/season';

export async function upsertLocation(tx: Tx, loc: SeasonLocation, sortOrder: number): Promise<string> {
  const values = {
    slug: loc.slug,
    name: loc.name,
    address: loc.address,
    suburb: loc.suburb,
    state: loc.state,
    timezone: loc.timezone,
    imageUrl: loc.imageUrl,
    seasonStart: loc.seasonStart,
    seasonEnd: loc.seasonEnd,
    // Absent from a reloaded file: on sale at once, like every other field the file no longer sets.
    salesOpenAt: loc.salesOpenAt ? salesOpenInstant(loc.salesOpenAt, loc.timezone) : null,
    queueOpensMinutesBefore: queueOpensMinutesBefore(loc),
    sortOrder,
  };
  const [row] = await tx
    .insert(locations)
    .values(values)
    .onConflictDoUpdate({ target: locations.slug, set: values })
    .returning({ id: locations.id });
  return row!.id;
}

export async function upsertSlotType(
  tx: Tx,
  locationId: string,
  type: Season['slotTypes'][number],
  sortOrder: number,
): Promise<string> {
  const values = {
    locationId,
    slug: type.slug,
    name: type.name,
    description: type.description,
    durationMinutes: type.durationMinutes,
    allowsPets: type.allowsPets,
    sortOrder,
  };
  const [row] = await tx
    .insert(slotTypes)
    .values(values)
    .onConflictDoUpdate({ target: [slotTypes.locationId, slotTypes.slug], set: values })
    .returning({ id: slotTypes.id });
  return row!.id;
}

/**
 * Packages and add-ons are upserted by slug; ones no longer in the file are retired, not deleted (orders refer to
 * them).
 */
export async function syncProducts(tx: Tx, season: Season): Promise<void> {
  for (const [i, p] of season.packages.entries()) {
    const values = {
      slug: p.slug,
      name: p.name,
      description: p.description,
      includes: p.includes,
      priceCents: p.priceCents,
      imageUrl: p.imageUrl,
      maxQuantity: p.maxQuantity,
      slotTypeSlugs: p.slotTypes ?? null,
      digitalPhotos: storedDigitalPhotos(p.digitalPhotos),
      active: true,
      sortOrder: i,
    };
    await tx.insert(packages).values(values).onConflictDoUpdate({ target: packages.slug, set: values });
  }
  await tx
    .update(packages)
    .set({ active: false })
    .where(
      notInArray(
        packages.slug,
        season.packages.map((p) => p.slug),
      ),
    );
  for (const [i, a] of season.addOns.entries()) {
    const values = {
      slug: a.slug,
      name: a.name,
      description: a.description,
      priceCents: a.priceCents,
      maxQuantity: a.maxQuantity,
      digitalPhotos: storedDigitalPhotos(a.digitalPhotos),
      active: true,
      sortOrder: i,
    };
    await tx.insert(addOns).values(values).onConflictDoUpdate({ target: addOns.slug, set: values });
  }
  const keep = season.addOns.map((a) => a.slug);
  await tx
    .update(addOns)
    .set({ active: false })
    .where(keep.length ? notInArray(addOns.slug, keep) : sql`true`);
}

export async function locationIdBySlug(tx: Tx, slug: string): Promise<string | undefined> {
  const [row] = await tx
    .select({ id: locations.id })
    .from(locations)
    .where(and(eq(locations.slug, slug)));
  return row?.id;
}

export interface ExistingSlot {
  id: string;
  location: string;
  slotType: string;
  kind: 'session' | 'break';
  startAt: Date;
  endAt: Date;
  /** The confirmed or awaiting-payment booking on it. */
  bookingId: string | null;
  reference: string | null;
  /** A family holds it right now (a live hold, a waitlist offer or a move in progress). */
  held: boolean;
}

/** The future slots of the named locations, with what a family has on each (the editor's diff). */
export async function futureSlotsOf(tx: DbOrTx, locationSlugs: string[], now: Date): Promise<ExistingSlot[]> {
  const at = now.toISOString();
  const result = await tx.execute(sql`
    select s.id, l.slug as location, t.slug as slot_type, s.kind, s.start_at, s.end_at, b.id as booking_id, b.reference,
      exists (select 1 from reservations r where r.slot_id = s.id and r.status = 'active' and r.expires_at >
      ${at}::timestamptz) as held
    from slots s
    join locations l on l.id = s.location_id
    join slot_types t on t.id = s.slot_type_id
    left join lateral (
      select b.id, b.reference from bookings b
      where b.slot_id = s.id and (b.id = s.booking_id or b.status in ('completed', 'payment_pending'))
      order by (b.status = 'completed') desc limit 1
    ) b on true
    where l.slug = any(${sql.param(locationSlugs)}::text[]) and s.start_at >= ${at}::timestamptz`);
  return result.rows.map((r) => ({
    id: r.id as string,
    location: r.location as string,
    slotType: r.slot_type as string,
    kind: r.kind as 'session' | 'break',
    startAt: new Date(r.start_at as string),
    endAt: new Date(r.end_at as string),
    bookingId: (r.booking_id as string | null) ?? null,
    reference: (r.reference as string | null) ?? null,
    held: r.held as boolean,
  }));
}
