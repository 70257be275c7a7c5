import type { Booking } from '@kringle/contracts/bookings';
import type { FastifyInstance } from 'fastify';
import { errors, notFound } from '../../lib/errors';
import { enqueueMail } from '../mail/outbox.repository';
import { assertReschedulable } from '../booking-lifecycle/booking-policy';
import { bookingDetails, slotStart } from '../booking-lifecycle/booking-rows.repository';
import { bookingRescheduledMail } from '../booking-lifecycle/bookings.emails';
import { lockOwnBooking, sessionClosed, slotWithType } from './booking-changes.repository';
import { lockReservation } from '../sessions/holds.repository';
import { reschedule } from '../booking-lifecycle/booking-change-transitions';
import { familyActor } from '../audit-trail/audit-entries.repository';
import { getBooking } from './bookings.service';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'slotState' | 'log'>;

/**
 * Moves a confirmed booking onto the session held for it, in one transaction: the old session is
 * freed, the new one booked, the count goes up, or nothing changes at all.
 */
export async function rescheduleBooking(
  deps: Deps,
  userId: string,
  bookingId: string,
  reservationId: string,
): Promise<Booking> {
  const now = deps.clock.now();
  const freedSlotId = await deps.db.transaction(async (tx) => {
    const booking = await lockOwnBooking(tx, bookingId, userId);
    if (!booking) throw notFound('That booking');
    // A closure that took this session remedies the booking itself: a move now would race it (issue 48).
    if (await sessionClosed(tx, booking.slotId)) throw errors.sessionClosedForMove();
    const reservation = await lockReservation(tx, reservationId, userId);
    if (!reservation || reservation.bookingId !== booking.id) throw notFound('That reservation');
    const previousStart = await slotStart(tx, booking.slotId);
    const target = await slotWithType(tx, reservation.slotId);
    assertReschedulable(deps, booking, previousStart, target.locationId, now);
    if (reservation.status !== 'active' || reservation.expiresAt <= now) throw errors.holdExpired();
    if (!(await reschedule({ tx, now, log: deps.log, actor: familyActor(userId) }, booking, target, reservation.id)))
      throw errors.holdExpired();
    await enqueueMail(
      tx,
      bookingRescheduledMail(
        await bookingDetails(tx, booking.id),
        deps.config.BRAND_NAME,
        deps.config.PUBLIC_URL,
        previousStart,
        now,
      ),
    );
    return booking.slotId;
  });
  // The old session is free again: this process shows and offers it at once.
  deps.slotState.changed({ freed: [freedSlotId] });
  return getBooking(deps, userId, bookingId);
}
