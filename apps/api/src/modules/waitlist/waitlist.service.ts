import type { JoinWaitlistBody, WaitlistEntry, WaitlistList } from '@kringle/contracts/waitlist';
import { and, eq } from 'drizzle-orm';
import { isUniqueViolation } from '../../db/client';
import { locations, slotTypes } from '../../db/schema/catalogue';
import { errors, notFound } from '../../lib/errors';
import { localDateOf } from '@kringle/contracts/dates';
import { countUpcomingBookings } from '../sessions/holds.repository';
import { leadCutoffOf } from '../booking-lifecycle/booking-policy';
import { handOffDay, handOffSlot, type WaitlistDeps } from './waitlist.hand-off';
import { familyActor } from '../audit-trail/audit-entries.repository';
import { endOffer } from '../sessions/system-holds.repository';
import {
  dayOutlook,
  endEntry,
  hasLiveEntryFor,
  insertEntry,
  isBookedOnDay,
  listLiveEntries,
  liveEntryCount,
  lockFamily,
  lockLiveEntry,
  type EntryRow,
} from './waitlist.repository';

const toEntry = (row: EntryRow): WaitlistEntry => ({
  id: row.id,
  locationId: row.locationId,
  slotTypeId: row.slotTypeId,
  date: row.date,
  status: row.status,
  position: row.position,
  createdAt: row.createdAt.toISOString(),
  offer: row.offer
    ? {
        reservationId: row.offer.reservationId,
        slotId: row.offer.slotId,
        startAt: row.offer.startAt.toISOString(),
        expiresAt: row.offer.expiresAt.toISOString(),
      }
    : null,
});

/**
 * Joins the line for a sold-out day (API.md "Waitlist"). Refused when a session of that type is
 * on sale that day (WAITLIST_NOT_NEEDED), when the family already waits for it, has a booking
 * that day, or has WAITLIST_LIMIT live entries. The family's row is locked so two tabs cannot
 * both squeeze under the limit.
 */
export async function joinWaitlist(deps: WaitlistDeps, userId: string, body: JoinWaitlistBody): Promise<WaitlistEntry> {
  const now = deps.clock.now();
  const [place] = await deps.db
    .select({
      timezone: locations.timezone,
      seasonEnd: locations.seasonEnd,
      salesOpenAt: locations.salesOpenAt,
      name: locations.name,
    })
    .from(slotTypes)
    .innerJoin(locations, eq(locations.id, slotTypes.locationId))
    .where(and(eq(slotTypes.id, body.slotTypeId), eq(slotTypes.locationId, body.locationId)));
  if (!place) throw notFound('That location and session type');
  if (body.date < localDateOf(now, place.timezone) || body.date > place.seasonEnd)
    throw errors.invalidField('date', 'That day is not in the season ahead.');
  // Queueing before the opening would be a head start on everyone else.
  if (place.salesOpenAt && place.salesOpenAt > now) throw errors.salesNotOpen(place.name);
  const leadCutoff = leadCutoffOf(deps.config, now);
  const outlook = await dayOutlook(deps.db, { ...body, now, leadCutoff });
  if (outlook.sessionsAhead === 0)
    throw errors.invalidField('date', 'There are no sessions of that type left on that day.');
  if (outlook.available > 0) throw errors.waitlistNotNeeded();
  let id: string;
  try {
    id = await deps.db.transaction(async (tx) => {
      await lockFamily(tx, userId);
      if (await hasLiveEntryFor(tx, { userId, ...body })) throw errors.alreadyWaitlisted();
      const limit = deps.config.WAITLIST_LIMIT;
      if ((await liveEntryCount(tx, userId)) >= limit) {
        throw errors.waitlistLimit(limit);
      }
      if (await isBookedOnDay(tx, userId, body.date)) throw errors.alreadyBooked();
      // An offer that could not be checked out would only hold the session back from the next family.
      const most = deps.config.MAX_UPCOMING_BOOKINGS;
      if ((await countUpcomingBookings(tx, userId, now)) >= most) {
        throw errors.bookingLimit(most);
      }
      return insertEntry(tx, { userId, ...body, now });
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw errors.alreadyWaitlisted();
    throw err;
  }
  // A session freed between the check above and this entry would otherwise wait for the job.
  await handOffDay(deps, body);
  const [row] = await listLiveEntries(deps.db, userId, deps.clock.now(), id);
  if (!row) throw notFound('That waitlist entry');
  return toEntry(row);
}

export async function listWaitlist(deps: WaitlistDeps, userId: string): Promise<WaitlistList> {
  return { items: (await listLiveEntries(deps.db, userId, deps.clock.now())).map(toEntry) };
}

/** Leaves the line; an open offer is let go and passes to the next family at once. */
export async function leaveWaitlist(deps: WaitlistDeps, userId: string, id: string): Promise<void> {
  const now = deps.clock.now();
  const freed = await deps.db.transaction(async (tx) => {
    const entry = await lockLiveEntry(tx, id, userId);
    if (!entry) throw notFound('That waitlist entry');
    await endEntry(tx, entry.id, 'left', now);
    // A checked-out offer is a booking being paid: it is not taken away here.
    return entry.status === 'offered' && entry.reservationId
      ? endOffer(tx, entry.reservationId, 'cancelled', { actor: familyActor(userId), at: now })
      : null;
  });
  if (!freed) return;
  deps.slotState.changed({ freed: [freed] });
  await handOffSlot(deps, freed);
}
