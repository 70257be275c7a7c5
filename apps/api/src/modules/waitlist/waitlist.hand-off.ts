import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { enqueueMail } from '../mail/outbox.repository';
import { announceTaken } from '../sessions/slot-events.listener';
import { leadCutoffOf } from '../booking-lifecycle/booking-policy';
import { noOneWaitingFor } from '../sessions/session-rules.sql';
import { freeNow, endEntry } from './waitlist.repository';
import { insertAuditEntry, SYSTEM } from '../audit-trail/audit-entries.repository';
import { endOffer } from '../sessions/system-holds.repository';
import { waitlistOfferMail } from './waitlist.emails';
import {
  endStaleEntries,
  freeSlotsOnWaitedDays,
  lockFreeSlot,
  lockNextInLine,
  lockSettledOffers,
  makeOffer,
  type FreeSlot,
  type NextFamily,
} from './waitlist-offers.repository';

export type WaitlistDeps = Pick<FastifyInstance, 'db' | 'pool' | 'clock' | 'config' | 'log' | 'slotState'>;

/** At most this many families found to have booked the day already are passed over in one hand-off. */
const MAX_SKIPPED = 20;

/**
 * Offers a free session to the first family waiting for its day (decision 0028), in one
 * transaction: the session row and the entry are locked (SKIP LOCKED, so processes doing the same
 * never queue or deadlock), the offer's reservation takes the session like any hold, the entry
 * becomes "offered" and the e-mail goes into the outbox. Meanwhile no public hold can take the
 * session: the hold statements refuse a day someone waits for (session-rules.sql.ts). Returns true
 * when an offer was made.
 */
export async function handOffSlot(deps: WaitlistDeps, slotId: string): Promise<boolean> {
  const now = deps.clock.now();
  const leadCutoff = leadCutoffOf(deps.config, now);
  const offer = await deps.db.transaction(async (tx) => {
    const slot = await lockFreeSlot(tx, slotId, now, leadCutoff);
    if (!slot) return null;
    for (let skipped = 0; skipped < MAX_SKIPPED; skipped++) {
      const family = await lockNextInLine(tx, slot, now);
      if (!family) return null;
      // Booked that day some other way, or at the per-account limit since joining (an offer it
      // could not check out would only hold the session back): out of the line, the next is asked.
      if (family.bookedThatDay || family.upcoming >= deps.config.MAX_UPCOMING_BOOKINGS) {
        await endEntry(tx, family.entryId, family.bookedThatDay ? 'booked' : 'ended', now);
        continue;
      }
      const reservationId = randomUUID();
      const expiresAt = new Date(now.getTime() + deps.config.WAITLIST_OFFER_MINUTES * 60_000);
      await makeOffer(tx, { reservationId, slot, family, expiresAt, refreshesLeft: deps.config.HOLD_REFRESHES, now });
      await enqueueMail(
        tx,
        waitlistOfferMail(
          offerFacts(slot, family, reservationId, expiresAt),
          deps.config.BRAND_NAME,
          deps.config.PUBLIC_URL,
        ),
      );
      return { slot, family, reservationId, expiresAt };
    }
    return null;
  });
  if (!offer) return false;
  // This process's caches learn at once; the others hear the announcement (and the free trigger).
  deps.slotState.changed({ locationId: offer.slot.locationId });
  const taken = deps.slotState.taken;
  taken.remember(offer.slot.id, offer.family.userId, offer.expiresAt, now, taken.version);
  announceTaken(deps.slotState, deps.pool, deps.log, {
    slotId: offer.slot.id,
    holderId: offer.family.userId,
    reservationId: offer.reservationId,
    endsAt: offer.expiresAt,
  });
  deps.log.info(
    { slotId: offer.slot.id, entryId: offer.family.entryId, reservationId: offer.reservationId },
    'waitlist offer made',
  );
  return true;
}

const offerFacts = (slot: FreeSlot, family: NextFamily, reservationId: string, expiresAt: Date) => ({
  email: family.email,
  firstName: family.firstName,
  locationName: slot.locationName,
  slotTypeName: slot.slotTypeName,
  timezone: slot.timezone,
  startAt: slot.startAt,
  expiresAt,
  reservationId,
});

/**
 * A session was freed somewhere (the slots_freed trigger's announcement): hand it off if a family
 * waits for its day. One cheap read first, since most frees have nobody waiting.
 */
export async function onSlotFreed(deps: WaitlistDeps, slotId: string): Promise<void> {
  const now = deps.clock.now();
  const r = await deps.db.execute(sql`
    select 1 from slots s join locations l on l.id = s.location_id
    where s.id = ${slotId}::uuid and ${freeNow(now, leadCutoffOf(deps.config, now))} and not
    ${sql.raw(noOneWaitingFor('s'))}`);
  if (r.rows.length > 0) await handOffSlot(deps, slotId);
}

/**
 * What the slot-events listener calls on every free heard, when this process runs the jobs: the
 * waitlist job retries whatever a failed hand-off misses.
 */
export function handOffOnFree(deps: WaitlistDeps): ((slotId: string) => void) | undefined {
  if (!deps.config.JOBS_ENABLED) return undefined;
  return (slotId) =>
    void onSlotFreed(deps, slotId).catch((err: unknown) =>
      deps.log.warn({ err, slotId }, 'waitlist hand-off failed; the waitlist job retries'),
    );
}

/**
 * One session's failure (say, a connection lost) does not keep the others from their families; the job tries it again.
 */
export async function handOffSlots(deps: WaitlistDeps, slotIds: Iterable<string>): Promise<number> {
  let offers = 0;
  let failure: unknown;
  for (const id of slotIds) {
    try {
      if (await handOffSlot(deps, id)) offers += 1;
    } catch (err) {
      failure ??= err;
    }
  }
  if (failure) throw failure;
  return offers;
}

/**
 * Closes offers that are over: paid ones end the entry as booked; declined or lapsed ones (also
 * lapsed during payment) take the family out of that day's line, close the hold and let the
 * session go, which hands it to the next family. Returns the sessions let go.
 */
export async function settleOffers(deps: WaitlistDeps): Promise<string[]> {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    const freed: string[] = [];
    for (const offer of await lockSettledOffers(tx, now)) {
      await endEntry(tx, offer.entryId, offer.outcome, now);
      if (offer.outcome === 'booked') {
        // The offer became a paid booking: its checkout and payment have their entries; this one says it came from the
        // line.
        const about = { bookingId: offer.bookingId, slotId: offer.slotId, orderId: null, reason: null };
        await insertAuditEntry(tx, {
          at: now,
          actor: SYSTEM,
          action: 'claimOffer',
          ...about,
          before: { waitlist: 'offered' },
          after: { waitlist: 'booked', waitlistEntryId: offer.entryId },
        });
        continue;
      }
      if (offer.reservationStatus === 'checked_out') continue;
      const slotId = await endOffer(tx, offer.reservationId, 'expired', { actor: SYSTEM, at: now });
      if (slotId) freed.push(slotId);
    }
    return freed;
  });
}

/** Offers whatever is free on one waited-for day (after a join: a free may have come just before it). */
export async function handOffDay(
  deps: WaitlistDeps,
  day: { locationId: string; slotTypeId: string; date: string },
): Promise<number> {
  const now = deps.clock.now();
  return handOffSlots(deps, await freeSlotsOnWaitedDays(deps.db, now, leadCutoffOf(deps.config, now), day));
}

const STALE_EVERY_MS = 60_000;

/**
 * One pass of the waitlist job: settle offers, then offer every free session on a waited-for day
 * (what the announcements did not place: holds that lapsed without a write, missed messages,
 * a restart), and now and then drop entries that can no longer be served.
 */
export function waitlistPass(deps: WaitlistDeps): () => Promise<void> {
  let staleAt = -Infinity;
  return async () => {
    const freed = await settleOffers(deps);
    if (freed.length > 0) deps.slotState.changed();
    await handOffSlots(deps, freed);
    const now = deps.clock.now();
    await handOffSlots(deps, await freeSlotsOnWaitedDays(deps.db, now, leadCutoffOf(deps.config, now)));
    if (now.getTime() - staleAt >= STALE_EVERY_MS) {
      staleAt = now.getTime();
      await endStaleEntries(deps.db, now);
    }
  };
}
