import type { Reservation } from '@kringle/contracts/reservations';
import type { FastifyInstance } from 'fastify';
import { errors, notFound } from '../../lib/errors';
import {
  extendSlotHold,
  findReservation,
  liveReservations,
  lockReservation,
  refreshHoldRow,
  releaseHold,
  releaseHoldRow,
} from '../sessions/holds.repository';
import { canMoveHold, holdStateOf } from '../sessions/session-table';
import { familyActor } from '../audit-trail/audit-entries.repository';
import { toReservation } from './reservations.service';

/** The family's holds once taken: listed, read, refreshed, let go; apart from taking one (reservations.service.ts). */

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'slotState'>;

/** The family's live holds and unpaid checkouts, so any device can resume them after sign-in. */
export async function listReservations(deps: Deps, userId: string): Promise<{ items: Reservation[] }> {
  const now = deps.clock.now();
  return { items: (await liveReservations(deps.db, userId, now)).map((r) => toReservation(r, now)) };
}

export async function getReservation(deps: Deps, userId: string, id: string): Promise<Reservation> {
  const row = await findReservation(deps.db, id, userId);
  if (!row) throw notFound('That reservation');
  return toReservation(row, deps.clock.now());
}

/**
 * "I need more time": a fresh HOLD_MINUTES from now, at most HOLD_REFRESHES times, while the hold lives (also during
 * payment).
 */
export async function refreshReservation(deps: Deps, userId: string, id: string): Promise<Reservation> {
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    const current = await lockReservation(tx, id, userId);
    if (!current) throw notFound('That reservation');
    // A checked-out hold still runs until the booking is paid; paying clears the slot's hold, so extending then fails.
    if (!canMoveHold(holdStateOf(current.status), 'refreshHold') || current.expiresAt <= now)
      throw errors.holdExpired();
    if (current.refreshesLeft <= 0) throw errors.refreshLimit();
    // Never shortens: a waitlist offer may have more than HOLD_MINUTES left.
    const expiresAt = new Date(
      Math.max(current.expiresAt.getTime(), now.getTime() + deps.config.HOLD_MINUTES * 60_000),
    );
    const extended = await extendSlotHold(
      tx,
      { reservationId: current.id, bookingId: current.bookingId, from: current.expiresAt, to: expiresAt },
      { actor: familyActor(userId), at: now },
    );
    if (!extended) throw errors.holdExpired();
    return refreshHoldRow(tx, current.id, { expiresAt, refreshesLeft: current.refreshesLeft - 1 }, now);
  });
  return toReservation(row, now);
}

/** Lets the session go at once. Cancelling again, or cancelling a lapsed hold, is harmless. */
export async function cancelReservation(deps: Deps, userId: string, id: string): Promise<Reservation> {
  const now = deps.clock.now();
  const row = await deps.db.transaction(async (tx) => {
    const current = await lockReservation(tx, id, userId);
    if (!current) throw notFound('That reservation');
    const state = holdStateOf(current.status);
    if (state === 'booked') {
      throw errors.notCancellable('This hold is already part of a booking. Cancel the booking instead.');
    }
    await releaseHold(
      tx,
      { reservationId: current.id, action: 'releaseHold', bookingId: current.bookingId },
      { actor: familyActor(userId), at: now },
    );
    // Cancelling again is harmless: a hold already let go stays as it is.
    if (!canMoveHold(state, 'releaseHold')) return current;
    return releaseHoldRow(tx, current.id, now);
  });
  deps.slotState.changed({ locationId: row.locationId, freed: [row.slotId] });
  return toReservation(row, now);
}
