import type { Booking } from '@kringle/contracts/bookings';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { bookings } from '../../db/schema/bookings';
import { reservations } from '../../db/schema/reservations';
import { errors, notFound } from '../../lib/errors';
import { enqueueMail } from '../mail/outbox.repository';
import { assertReschedulable } from '../booking-lifecycle/booking-policy';
import { bookingDetails, slotStart } from '../booking-lifecycle/booking-rows.repository';
import { bookingRescheduledMail } from '../booking-lifecycle/bookings.emails';
import { freeBookingSlot, lockOwnBooking, lockReservationOf, slotWithType, takeHeldSlot } from './booking-changes.repository';
import { getBooking } from './bookings.service';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'slotState'>;



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
    if (reservation.status !== 'active' || reservation.expiresAt <= now) throw errors.holdExpired();
    await freeBookingSlot(tx, { id: booking.id, slotId: booking.slotId, reservationId: null });
    if (!(await takeHeldSlot(tx, { bookingId: booking.id, slotId: target.id, reservationId: reservation.id, now }))) throw errors.holdExpired();
    await tx
      .update(bookings)
      .set({ slotId: target.id, slotTypeId: target.slotTypeId, rescheduleCount: booking.rescheduleCount + 1, reminderSentAt: null, updatedAt: now })
      .where(eq(bookings.id, booking.id));
    await tx.update(reservations).set({ status: 'checked_out', updatedAt: now }).where(eq(reservations.id, reservation.id));
    await enqueueMail(tx, bookingRescheduledMail(await bookingDetails(tx, booking.id), deps.config.BRAND_NAME, deps.config.PUBLIC_URL, previousStart, now));
    return booking.slotId;
  });
  // The old session is free again: this process shows and offers it at once.
  deps.slotState.changed({ freed: [freedSlotId] });
  return getBooking(deps, userId, bookingId);
}
