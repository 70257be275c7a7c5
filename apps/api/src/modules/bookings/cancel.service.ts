import type { Booking } from '@kringle/contracts/bookings';
import { canCancel } from '@kringle/contracts/policy';
import type { RefundTo } from '@kringle/contracts/credit';
import type { FastifyInstance } from 'fastify';
import { errors, notFound } from '../../lib/errors';
import { enqueueMail } from '../mail/outbox.repository';
import { bookingDetails } from '../booking-lifecycle/booking-rows.repository';
import { cancel } from '../booking-lifecycle/booking-change-transitions';
import { familyActor } from '../audit-trail/audit-entries.repository';
import type { RefundRow } from '../order-payments/refunds.repository';
import { sendRefund } from '../payments/refunds.service';
import { latestOrder, lockOwnBooking } from './booking-changes.repository';
import { slotStart } from '../booking-lifecycle/booking-rows.repository';
import { bookingCancelledMail } from '../booking-lifecycle/bookings.emails';
import { getBooking } from './bookings.service';
import { policyOf } from '../booking-lifecycle/booking-policy';
import { moneyOnOrder, refundByPolicy } from '../order-payments/money-left';
import { transactionWithRetry } from '../../db/retry-transaction';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'stripe' | 'log' | 'slotState'>;

export interface CancelResult {
  booking: Booking;
  refund: { id: string; amountCents: number; status: RefundRow['status']; refundTo: RefundRow['method'] } | null;
}

const refundView = (r: RefundRow | undefined) =>
  r ? { id: r.id, amountCents: r.amountCents, status: r.status, refundTo: r.method } : null;

/**
 * Cancels a booking with the refund the policy gives. The booking's row lock makes a second
 * click or a second tab wait and then find it cancelled (409), so there is one refund at most; the
 * refund is recorded with the cancellation and sent to Stripe afterwards (retried by a job), or,
 * taken as account credit, settled with the cancellation.
 */
export async function cancelBooking(
  deps: Deps,
  userId: string,
  bookingId: string,
  body: { reason?: string; refundTo?: RefundTo } = {},
): Promise<CancelResult> {
  const { reason, refundTo = 'card' } = body;
  const now = deps.clock.now();
  const outcome = await transactionWithRetry(deps.db, async (tx) => {
    const booking = await lockOwnBooking(tx, bookingId, userId);
    if (!booking) throw notFound('That booking');
    // A second click or tab waits on the row lock above, then finds the booking cancelled: one refund at most.
    if (booking.status === 'cancelled') throw errors.notCancellable('This booking is already cancelled.');
    const startAt = await slotStart(tx, booking.slotId);
    const order = await latestOrder(tx, booking.id);
    const policyBooking = { ...booking, startAt, refundedCents: order?.refundedCents ?? 0 };
    if (!canCancel(policyBooking, now))
      throw errors.notCancellable('This session has already started, so it can no longer be cancelled.');
    // What is left on the order after earlier refunds (a support refund of part of it), not the price.
    const left = order ? (await moneyOnOrder(tx, order.id)).leftCents : 0;
    const refundCents = refundByPolicy(policyBooking, left, now, policyOf(deps.config));
    const unpaid = booking.status === 'payment_pending' || booking.status === 'payment_failed';

    const refund = await cancel({ tx, now, log: deps.log, actor: familyActor(userId) }, booking, order, {
      reason: reason?.trim() || 'customer_cancelled',
      refundCents,
      refundReason: 'customer_cancelled',
      refundTo,
    });
    const details = await bookingDetails(tx, booking.id);
    await enqueueMail(
      tx,
      bookingCancelledMail(
        { ...details, booking: { ...details.booking, status: booking.status } },
        deps.config.BRAND_NAME,
        deps.config.PUBLIC_URL,
        refundCents,
        policyOf(deps.config),
        false,
        refundTo,
      ),
    );
    return {
      refund,
      slotId: booking.slotId,
      intentToCancel: unpaid && order?.paymentIntentId ? { orderId: order.id, id: order.paymentIntentId } : null,
    };
  });
  // The session is free again: this process shows and offers it at once.
  deps.slotState.changed({ freed: [outcome.slotId] });

  let refund = outcome.refund;
  if (refund?.status === 'pending') refund = await sendRefund(deps, refund.id);
  if (outcome.intentToCancel && deps.stripe) {
    try {
      await deps.stripe.paymentIntents.cancel(
        outcome.intentToCancel.id,
        {},
        { idempotencyKey: `order-${outcome.intentToCancel.orderId}-cancel-intent` },
      );
    } catch (err) {
      // Already paid in the meantime: the success webhook finds the booking cancelled and refunds it.
      deps.log.warn({ err, bookingId }, 'could not cancel the PaymentIntent of a cancelled booking');
    }
  }
  return { booking: await getBooking(deps, userId, bookingId), refund: refundView(refund) };
}
