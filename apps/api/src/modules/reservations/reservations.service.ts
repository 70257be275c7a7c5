import { randomUUID } from 'node:crypto';
import type { CreateReservationBody, Reservation } from '@kringle/contracts/reservations';
import type { FastifyInstance } from 'fastify';
import { isUniqueViolation } from '../../db/client';
import type { AppError } from '../../lib/app-error';
import { errors, notFound } from '../../lib/errors';
import { announceTaken } from '../sessions/slot-events.listener';
import { assertCanHoldForReschedule, leadCutoffOf } from '../booking-lifecycle/booking-policy';
import { findLocation } from '../catalogue/catalogue.repository';
import { formatSessionTime } from '@kringle/contracts/dates';
import {
  addressHoldsFor,
  churnReleaseAt,
  claimSlot,
  countUpcomingBookings,
  insertReservation,
  liveCheckoutOn,
  liveReservations,
  slotForHold,
  sweepLapsedHolds,
  type ReservationRow,
} from '../sessions/holds.repository';
import { familyActor } from '../audit-trail/audit-entries.repository';
import { countHoldRefusal, holds } from '../operations/metrics';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'slotState'>;
/** The one-statement hold talks to the pool directly, as a named (prepared) statement. */
type HoldDeps = Deps & Pick<FastifyInstance, 'pool' | 'log' | 'queueGate'>;

/** Where the hold is asked from (hold-address.ts: null when no cap is in force), and the cap. */
export interface HoldFrom {
  address: string | null;
  limit: number;
}

/** Seconds until the first of an address's holds ends (decision 0069), at least 1. */
const secondsUntil = (at: Date | null, now: Date) =>
  Math.max(1, Math.ceil(((at?.getTime() ?? now.getTime()) - now.getTime()) / 1000));

/** Names the opening in the location's own clock: "Bookings for Westfield Sydney open Sat 1 Nov, 9:00 am AEDT." */
async function salesNotOpen(deps: Deps, locationId: string): Promise<AppError> {
  const location = await findLocation(deps.db, locationId);
  const when = location?.salesOpenAt ? formatSessionTime(location.salesOpenAt, location.timezone) : 'soon';
  return errors.salesNotOpen(location?.name ?? 'this location', when);
}

/** Readers see a lapsed hold as expired even before the sweep job has marked it. */
export function toReservation(row: ReservationRow, now: Date): Reservation {
  const lapsed = row.status === 'active' && row.expiresAt <= now;
  return {
    id: row.id,
    slotId: row.slotId,
    locationId: row.locationId,
    status: lapsed ? 'expired' : row.status,
    expiresAt: row.expiresAt.toISOString(),
    refreshesLeft: row.refreshesLeft,
    bookingId: row.bookingId,
  };
}

/**
 * Holds a session for HOLD_MINUTES. A family has one live hold or unpaid checkout at a time
 * (decision 0059): asking for the session it holds answers that hold, another one HOLD_LIMIT,
 * and a churn of releases HOLD_COOLDOWN. An address holding HOLD_ADDRESS_LIMIT sessions of the
 * location's day is answered RATE_LIMITED (decision 0069). Most holds (a customer without a live
 * hold, not rescheduling) take the one-statement path.
 */
export async function createReservation(
  deps: HoldDeps,
  userId: string,
  body: CreateReservationBody,
  from: HoldFrom,
): Promise<{ reservation: Reservation; existing: boolean }> {
  // Every decision below, counted by outcome (kringle_holds_total; decision 0088).
  try {
    const held = await decideHold(deps, userId, body, from);
    holds[held.existing ? 'existing' : 'granted'].inc();
    return held;
  } catch (err) {
    countHoldRefusal(err);
    throw err;
  }
}

async function decideHold(
  deps: HoldDeps,
  userId: string,
  body: CreateReservationBody,
  from: HoldFrom,
): Promise<{ reservation: Reservation; existing: boolean }> {
  if (!body.bookingId) {
    // The fair start (decision 0053): past the opening, a location's open line admits families in
    // turn. Locations without a line ask nothing (the gate knows them without a query).
    const queued = deps.queueGate.check(userId, body.slotId);
    if (queued) await queued;
    try {
      const quick = await quickOrOwn(deps, userId, body.slotId, from);
      if (quick) return quick;
    } catch (err) {
      // Refused because the family's own unpaid checkout has it: that same reservation (issue 37 item 1).
      // Not when another family's hold has it, as on drop day: most refusals then cost no query.
      if (
        (err as AppError).code !== 'SLOT_UNAVAILABLE' ||
        deps.slotState.taken.heldByAnother(body.slotId, userId, deps.clock.now())
      )
        throw err;
      const own = await liveCheckoutOn(deps.db, userId, body.slotId, deps.clock.now());
      if (own) return { reservation: toReservation(own, deps.clock.now()), existing: true };
      throw err;
    }
  }
  return holdInGeneral(deps, userId, body, from);
}

/** The drop-day path, then the family's own live hold on this session; null when the general path must decide. */
async function quickOrOwn(
  deps: HoldDeps,
  userId: string,
  slotId: string,
  from: HoldFrom,
): Promise<{ reservation: Reservation; existing: boolean } | null> {
  const quick = await tryQuickHold(deps, userId, slotId, from);
  if (quick) return { reservation: quick, existing: false };
  // The family's own live hold or unpaid checkout on this session: the same reservation (issue 37 item 1).
  const [own] = await liveReservations(deps.db, userId, deps.clock.now(), slotId);
  if (own) return { reservation: toReservation(own, deps.clock.now()), existing: true };
  return null;
}

/**
 * The one-round-trip hold (sessions/taken-sessions.ts `attempt`: memory, batcher, statement);
 * null when the general path must decide (the customer has a live hold).
 */
async function tryQuickHold(
  deps: HoldDeps,
  userId: string,
  slotId: string,
  from: HoldFrom,
): Promise<Reservation | null> {
  const now = deps.clock.now();
  const limit = deps.config.MAX_UPCOMING_BOOKINGS;
  const expiresAt = new Date(now.getTime() + deps.config.HOLD_MINUTES * 60_000);
  const id = randomUUID();
  const refreshesLeft = deps.config.HOLD_REFRESHES;
  const outcome = await deps.slotState.taken.attempt(deps.slotState.batcher, {
    reservationId: id,
    userId,
    slotId,
    expiresAt,
    refreshesLeft,
    now,
    leadCutoff: leadCutoffOf(deps.config, now),
    bookingLimit: limit,
    cooldownReleases: deps.config.HOLD_COOLDOWN_RELEASES,
    cooldownWindowMinutes: deps.config.HOLD_COOLDOWN_WINDOW_MINUTES,
    address: from.address,
    addressLimit: from.limit,
  });
  // Drop day (decision 0014): a session this process has just seen taken cost no query.
  if (outcome === 'refused') throw errors.slotUnavailable();
  if (!outcome) return null;
  if (!outcome.slotLocationId) throw notFound('That session');
  if (outcome.notOpen) throw await salesNotOpen(deps, outcome.slotLocationId);
  if (outcome.upcomingBookings >= limit) throw errors.bookingLimit(limit);
  if (outcome.held) {
    deps.slotState.changed({ locationId: outcome.slotLocationId });
    deps.queueGate.held(outcome.slotLocationId);
    announceTaken(deps.slotState, deps.pool, deps.log, {
      slotId,
      holderId: userId,
      reservationId: id,
      endsAt: expiresAt,
    });
    return toReservation(
      {
        id,
        userId,
        slotId,
        locationId: outcome.slotLocationId,
        status: 'active',
        expiresAt,
        refreshesLeft,
        bookingId: null,
        waitlistEntryId: null,
        holdAddress: from.address,
        createdAt: now,
        updatedAt: now,
      },
      now,
    );
  }
  if (outcome.heldByMe) return null;
  // A family with a hold or an unpaid checkout, or cooling down, is not tried: the general path answers.
  if (outcome.blocked && !outcome.takenBefore) return null;
  // The address holds its share of this day already; a session taken anyway is answered as taken.
  if (outcome.addressFullUntil && !outcome.takenBefore)
    throw errors.holdAddressFull(secondsUntil(outcome.addressFullUntil, now));
  throw errors.slotUnavailable();
}

/** Seconds until a churned family may hold again (decision 0059), or 0. */
async function cooldownSeconds(deps: HoldDeps, userId: string, now: Date): Promise<number> {
  const windowMinutes = deps.config.HOLD_COOLDOWN_WINDOW_MINUTES;
  const tipped = await churnReleaseAt(deps.pool, userId, now, deps.config.HOLD_COOLDOWN_RELEASES, windowMinutes);
  return tipped ? Math.max(1, Math.ceil((tipped.getTime() + windowMinutes * 60_000 - now.getTime()) / 1000)) : 0;
}

async function holdInGeneral(
  deps: HoldDeps,
  userId: string,
  body: CreateReservationBody,
  from: HoldFrom,
): Promise<{ reservation: Reservation; existing: boolean }> {
  const slot = await slotForHold(deps.db, body.slotId);
  if (!slot) throw notFound('That session');
  // Reschedule holds too: before the opening nobody, booked elsewhere or not, gets a head start.
  if (slot.salesOpenAt && slot.salesOpenAt > deps.clock.now()) throw await salesNotOpen(deps, slot.locationId);
  const limit = deps.config.MAX_UPCOMING_BOOKINGS;
  // A reschedule hold moves an existing booking, so it does not count towards the limit.
  if (body.bookingId) await assertCanHoldForReschedule(deps, deps.db, userId, body.bookingId, slot.locationId);
  else if ((await countUpcomingBookings(deps.db, userId, deps.clock.now())) >= limit) throw errors.bookingLimit(limit);
  // Asked before the family's live hold: a wizard changing session lets its hold go only after
  // HOLD_LIMIT, so a family cooling down keeps the session it has.
  const wait = await cooldownSeconds(deps, userId, deps.clock.now());
  if (wait > 0) throw errors.holdCooldown(wait);
  const holdMs = deps.config.HOLD_MINUTES * 60_000;
  // Two holds of one family racing (two tabs, two processes) meet on the one-active-hold index:
  // the loser tries again and finds the winner's hold.
  for (let attempt = 0; ; attempt++) {
    const now = deps.clock.now();
    try {
      let released: string[] = [];
      let existing: ReservationRow | undefined;
      const row = await deps.db.transaction(async (tx) => {
        released = await sweepLapsedHolds(tx, userId, now);
        // Waitlist offers are given, not taken: they neither count nor are counted (decision 0059).
        const live = (await liveReservations(tx, userId, now)).filter((r) => r.waitlistEntryId === null);
        existing = live.find(
          (r) => r.slotId === slot.id && (!body.bookingId || (r.bookingId === body.bookingId && r.status === 'active')),
        );
        if (existing) return existing;
        if (live.length > 0) throw errors.holdLimit();
        if (from.address && from.limit > 0) {
          const here = await addressHoldsFor(tx, { address: from.address, slotId: slot.id, now });
          if (here.n >= from.limit) throw errors.holdAddressFull(secondsUntil(here.firstEnds, now));
        }
        const reservation = await insertReservation(tx, {
          userId,
          slotId: slot.id,
          locationId: slot.locationId,
          expiresAt: new Date(now.getTime() + holdMs),
          refreshesLeft: deps.config.HOLD_REFRESHES,
          bookingId: body.bookingId ?? null,
          holdAddress: from.address,
          now,
        });
        const claimed = await claimSlot(
          tx,
          {
            slotId: slot.id,
            reservationId: reservation.id,
            expiresAt: reservation.expiresAt,
            now,
            leadCutoff: leadCutoffOf(deps.config, now),
            bookingId: reservation.bookingId,
          },
          { actor: familyActor(userId), at: now },
        );
        if (!claimed) throw errors.slotUnavailable();
        return reservation;
      });
      // A swept hold may have been at another location: this process forgets every answer.
      deps.slotState.changed({ freed: released });
      if (existing) return { reservation: toReservation(existing, now), existing: true };
      deps.queueGate.held(slot.locationId);
      // Told like a quick hold: other processes refuse it from memory, and open live streams show it taken.
      announceTaken(deps.slotState, deps.pool, deps.log, {
        slotId: slot.id,
        holderId: userId,
        reservationId: row.id,
        endsAt: row.expiresAt,
      });
      return { reservation: toReservation(row, now), existing: false };
    } catch (err) {
      if (attempt < 3 && isUniqueViolation(err)) continue;
      throw err;
    }
  }
}
