import type { AddOn, Location, Package } from '@kringle/contracts/catalogue';
import { CURRENCY } from '@kringle/contracts/money';
import type { Db } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { notFound } from '../../lib/errors';
import {
  findLocation,
  findSlotType,
  listAddOns,
  listLocations,
  listPackages,
  listSlotTypes,
} from './catalogue.repository';

export async function getLocations(db: Db, clock: Clock): Promise<Location[]> {
  const rows = await listLocations(db);
  const types = await listSlotTypes(
    db,
    rows.map((r) => r.id),
    clock.now(),
  );
  return rows.map((loc) => ({
    id: loc.id,
    name: loc.name,
    address: loc.address,
    suburb: loc.suburb,
    state: loc.state,
    timezone: loc.timezone,
    imageUrl: loc.imageUrl,
    seasonStart: loc.seasonStart,
    seasonEnd: loc.seasonEnd,
    salesOpenAt: loc.salesOpenAt?.toISOString() ?? null,
    queueOpensAt:
      loc.salesOpenAt && loc.queueOpensMinutesBefore > 0
        ? new Date(loc.salesOpenAt.getTime() - loc.queueOpensMinutesBefore * 60_000).toISOString()
        : null,
    slotTypes: types
      .filter((t) => t.locationId === loc.id)
      .map((t) => ({
        id: t.id,
        name: t.name,
        description: t.description,
        durationMinutes: t.durationMinutes,
        allowsPets: t.allowsPets,
      })),
  }));
}

export async function getPackages(db: Db, query: { locationId?: string; slotTypeId?: string }): Promise<Package[]> {
  if (query.locationId && !(await findLocation(db, query.locationId))) throw notFound('That location');
  let slug: string | undefined;
  if (query.slotTypeId) {
    const type = await findSlotType(db, query.slotTypeId);
    if (!type || (query.locationId && type.locationId !== query.locationId)) throw notFound('That session type');
    slug = type.slug;
  }
  const rows = await listPackages(db, slug);
  return rows.map((p) => ({
    id: p.id,
    type: 'package' as const,
    name: p.name,
    description: p.description,
    includes: p.includes,
    priceCents: p.priceCents,
    currency: CURRENCY,
    imageUrl: p.imageUrl,
    maxQuantity: p.maxQuantity,
  }));
}

export async function getAddOns(db: Db, query: { locationId?: string }): Promise<AddOn[]> {
  if (query.locationId && !(await findLocation(db, query.locationId))) throw notFound('That location');
  const rows = await listAddOns(db);
  return rows.map((a) => ({
    id: a.id,
    type: 'add_on' as const,
    name: a.name,
    description: a.description,
    priceCents: a.priceCents,
    currency: CURRENCY,
    maxQuantity: a.maxQuantity,
  }));
}
