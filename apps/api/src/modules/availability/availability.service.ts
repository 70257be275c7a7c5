import type { AvailableDates, AvailableSlots, Slot, SlotAnswer } from '@kringle/contracts/catalogue';
import { addDays, localDateOf, zonedToInstant } from '@kringle/contracts/dates';
import type { FastifyInstance } from 'fastify';
import { errors, notFound } from '../../lib/errors';
import { findLocation, findLocationWithType, type LocationRow } from '../catalogue/catalogue.repository';
import { leadCutoffOf } from '../booking-lifecycle/booking-policy';
import { availableCountsByDate, findSlot, slotsBetween, type SlotRow } from './availability.repository';

const MAX_RANGE_DAYS = 92;

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config'>;

function instants(deps: Deps) {
  const now = deps.clock.now();
  return { now, leadCutoff: leadCutoffOf(deps.config, now) };
}

const toSlot = (s: SlotRow): Slot => ({
  id: s.id,
  slotTypeId: s.slotTypeId,
  kind: s.kind,
  startAt: s.startAt.toISOString(),
  endAt: s.endAt.toISOString(),
  status: s.status,
});

async function locationAndType(deps: Deps, locationId: string, slotTypeId?: string): Promise<LocationRow> {
  if (!slotTypeId) {
    const location = await findLocation(deps.db, locationId);
    if (!location) throw notFound('That location');
    return location;
  }
  const found = await findLocationWithType(deps.db, locationId, slotTypeId);
  if (!found) throw notFound('That location');
  if (!found.typeFound) throw notFound('That session type');
  return found.location;
}

/** Sessions and breaks of one local day at a location, with derived statuses. */
export async function getAvailableSlots(
  deps: Deps,
  locationId: string,
  query: { date: string; slotTypeId?: string; filter: 'all' | 'break' },
): Promise<AvailableSlots> {
  const location = await locationAndType(deps, locationId, query.slotTypeId);
  const from = zonedToInstant(query.date, '00:00', location.timezone);
  const to = zonedToInstant(addDays(query.date, 1), '00:00', location.timezone);
  const rows = await slotsBetween(deps.db, {
    locationId,
    from,
    to,
    slotTypeId: query.slotTypeId,
    onlyBreaks: query.filter === 'break',
    ...instants(deps),
  });
  return {
    timezone: location.timezone,
    salesOpenAt: location.salesOpenAt?.toISOString() ?? null,
    items: rows.map(toSlot),
  };
}

/**
 * Bookable sessions left per day and sessions still to come, every day of the range (zeros included so the picker can
 * tell closed from fully booked).
 */
export async function getAvailableDates(
  deps: Deps,
  locationId: string,
  query: { slotTypeId: string; from?: string; to?: string },
): Promise<AvailableDates> {
  const location = await locationAndType(deps, locationId, query.slotTypeId);
  const today = localDateOf(deps.clock.now(), location.timezone);
  const from = query.from ?? (today > location.seasonStart ? today : location.seasonStart);
  const to = query.to ?? location.seasonEnd;
  if (addDays(from, MAX_RANGE_DAYS) < to) {
    throw errors.validation(
      [{ path: 'querystring.to', message: `at most ${MAX_RANGE_DAYS} days after from` }],
      `Ask for at most ${MAX_RANGE_DAYS} days at a time.`,
    );
  }
  const counts = await availableCountsByDate(deps.db, {
    locationId,
    slotTypeId: query.slotTypeId,
    timezone: location.timezone,
    from: zonedToInstant(from, '00:00', location.timezone),
    to: zonedToInstant(addDays(to, 1), '00:00', location.timezone),
    ...instants(deps),
  });
  const items: AvailableDates['items'] = [];
  for (let date = from; date <= to; date = addDays(date, 1))
    items.push({ date, ...(counts.get(date) ?? { available: 0, sessions: 0 }) });
  return { timezone: location.timezone, salesOpenAt: location.salesOpenAt?.toISOString() ?? null, items };
}

export async function getSlot(deps: Deps, locationId: string, slotId: string): Promise<SlotAnswer> {
  const slot = await findSlot(deps.db, { slotId, ...instants(deps) });
  if (!slot || slot.locationId !== locationId) throw notFound('That session');
  return { ...toSlot(slot), salesOpenAt: slot.salesOpenAt?.toISOString() ?? null };
}
