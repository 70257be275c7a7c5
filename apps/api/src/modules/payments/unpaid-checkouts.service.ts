import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { reservations } from '../../db/schema/reservations';
import { holdLapsedMail } from '../bookings/bookings.emails';
import { enqueueMail } from '../mail/outbox.repository';
import { bookingDetails, claimLapsedCheckouts, lockBooking, releaseSlotHoldOf, setBooking, setOrder } from './payments.repository';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'stripe' | 'log'>;

/**
 * API.md: an unpaid checkout whose hold expires becomes `cancelled` and its PaymentIntent is
 * cancelled. The booking is cancelled first (in the database), then the intent; if the customer
 * paid in between, Stripe refuses the cancel and the success webhook confirms the booking when
 * the session is still free, or refunds it.
 */
export async function cancelLapsedCheckouts(deps: Deps, batch = 100): Promise<number> {
  const now = deps.clock.now();
  const lapsed = await deps.db.transaction(async (tx) => {
    const claimed = await claimLapsedCheckouts(tx, now, batch);
    for (const c of claimed) {
      const booking = await lockBooking(tx, c.bookingId);
      await setBooking(tx, c.bookingId, { status: 'cancelled', cancelledAt: now, cancelReason: 'hold_expired', updatedAt: now });
      await setOrder(tx, c.orderId, { status: 'failed' });
      await tx.update(reservations).set({ status: 'expired', updatedAt: now }).where(eq(reservations.id, c.reservationId));
      await releaseSlotHoldOf(tx, booking);
      await enqueueMail(tx, holdLapsedMail(await bookingDetails(tx, c.bookingId), deps.config.BRAND_NAME, deps.config.PUBLIC_URL));
    }
    return claimed;
  });
  for (const c of lapsed) {
    if (!c.paymentIntentId || !deps.stripe) continue;
    try {
      await deps.stripe.paymentIntents.cancel(c.paymentIntentId, {}, { idempotencyKey: `order-${c.orderId}-cancel-intent` });
    } catch (err) {
      deps.log.warn({ err, orderId: c.orderId }, 'could not cancel the PaymentIntent of a lapsed checkout');
    }
  }
  return lapsed.length;
}
