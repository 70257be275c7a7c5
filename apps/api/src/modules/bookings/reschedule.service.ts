import type { Booking } from '@kringle/contracts/bookings';
import { rescheduleDeadline } from '@kringle/contracts/policy';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../../db/client';
import { bookings } from '../../db/schema/bookings';
import { reservations } from '../../db/schema/reservations';
import { AppError, notFound } from '../../lib/app-error';
import { forgetAvailability } from '../availability/availability.cache';
import { enqueueMail } from '../mail/outbox.repository';
import { forgetTakenSessions } from '../reservations/taken-sessions';
import { bookingDetails } from '../payments/payments.repository';
import { freeBookingSlot, lockOwnBooking, lockReservationOf, slotStart, slotWithType, takeHeldSlot } from './booking-changes.repository';
import { bookingRescheduledMail } from './bookings.emails';
import { getBooking, policyOf } from './bookings.service';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config'>;

const holdExpired = () => new AppError('HOLD_EXPIRED', 409, 'Your hold on the new session has ended. Please choose it again.');

/** The rules a reschedule must pass, checked when the new session is held and again when the booking moves. */
export function assertReschedulable(
  deps: Pick<Deps, 'config'>,
  booking: { status: string; rescheduleCount: number; locationId: string },
  startAt: Date,
  newLocationId: string,
  now: Date,
): void {
  const rules = policyOf(deps.config);
  if (booking.status !== 'completed') throw new AppError('RESCHEDULE_WINDOW_CLOSED', 409, 'Only confirmed bookings can be moved.');
  if (now >= rescheduleDeadline(startAt, rules)) {
    throw new AppError('RESCHEDULE_WINDOW_CLOSED', 409, `Bookings can be moved until ${rules.rescheduleCutoffHours} hours before the session.`);
  }
  if (booking.rescheduleCount >= rules.rescheduleLimit) {
    throw new AppError('RESCHEDULE_LIMIT', 409, `This booking has already been moved ${rules.rescheduleLimit} times, the most allowed.`);
  }
  if (newLocationId !== booking.locationId) throw new AppError('DIFFERENT_LOCATION', 400, 'A booking can only move to another session at the same location.');
}

/** For POST /bookings/reservation with a bookingId: the booking must be the caller's and movable there. */
export async function assertCanHoldForReschedule(deps: Deps, db: DbOrTx, userId: string, bookingId: string, newLocationId: string): Promise<void> {
  const [booking] = await db.select().from(bookings).where(eq(bookings.id, bookingId));
  if (!booking || booking.userId !== userId) throw notFound('That booking');
  assertReschedulable(deps, booking, await slotStart(db, booking.slotId), newLocationId, deps.clock.now());
}

/**
 * Moves a confirmed booking onto the session held for it, in one transaction: the old session is
 * freed, the new one booked, the count goes up, or nothing changes at all.
 */
export async function rescheduleBooking(deps: Deps, userId: string, bookingId: string, reservationId: string): Promise<Booking> {
  const now = deps.clock.now();
  const freedSlotId = await deps.db.transaction(async (tx) => {
    const booking = await lockOwnBooking(tx, bookingId, userId);
    if (!booking) throw notFound('That booking');
    const reservation = await lockReservationOf(tx, reservationId, userId);
    if (!reservation || reservation.bookingId !== booking.id) throw notFound('That reservation');
    const previousStart = await slotStart(tx, booking.slotId);
    const target = await slotWithType(tx, reservation.slotId);
    assertReschedulable(deps, booking, previousStart, target.locationId, now);
    if (reservation.status !== 'active' || reservation.expiresAt <= now) throw holdExpired();
    await freeBookingSlot(tx, { id: booking.id, slotId: booking.slotId, reservationId: null });
    if (!(await takeHeldSlot(tx, { bookingId: booking.id, slotId: target.id, reservationId: reservation.id, now }))) throw holdExpired();
    await tx
      .update(bookings)
      .set({ slotId: target.id, slotTypeId: target.slotTypeId, rescheduleCount: booking.rescheduleCount + 1, reminderSentAt: null, updatedAt: now })
      .where(eq(bookings.id, booking.id));
    await tx.update(reservations).set({ status: 'checked_out', updatedAt: now }).where(eq(reservations.id, reservation.id));
    await enqueueMail(tx, bookingRescheduledMail(await bookingDetails(tx, booking.id), deps.config.BRAND_NAME, deps.config.PUBLIC_URL, previousStart, now));
    return booking.slotId;
  });
  // The old session is free again: this process shows and offers it at once.
  forgetAvailability(deps.db);
  forgetTakenSessions(deps.db, freedSlotId);
  return getBooking(deps, userId, bookingId);
}
