import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import { holdLapsedMail, paymentFailedMail } from '../booking-lifecycle/bookings.emails';
import { enqueueMail } from '../mail/outbox.repository';
import { bookingDetails, lockBooking } from '../booking-lifecycle/booking-rows.repository';
import { lapseCheckout } from '../booking-lifecycle/payment-transitions';
import { SYSTEM } from '../audit-trail/audit-entries.repository';
import { claimLapsedCheckout, lapsedCheckouts, type LapsedCheckout } from './payments.repository';
import { applyIntentOutcome } from './payments.service';
import { isPermanentStripeError } from './stripe-failures';
import { transactionWithRetry } from '../../db/retry-transaction';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'stripe' | 'log' | 'slotState'>;

/**
 * API.md: an unpaid checkout whose hold expires becomes `cancelled` and its PaymentIntent is
 * cancelled. The intent is read first: one that succeeded (its webhook late or lost) is applied
 * as a payment instead, so a paid booking is never cancelled and no "hold lapsed" mail goes out.
 * When Stripe cannot be asked, the checkout waits for a later pass; its lapsed hold already
 * leaves the session free for others meanwhile. Returns how many checkouts were settled.
 */
export async function settleLapsedCheckouts(deps: Deps, batch = 100): Promise<number> {
  let settled = 0;
  let stripeDown = false;
  for (const lapsed of await lapsedCheckouts(deps.db, deps.clock.now(), batch)) {
    // One failed read is enough for this pass: each would wait out the SDK's timeouts and retries.
    if (lapsed.paymentIntentId && stripeDown) continue;
    const intent = lapsed.paymentIntentId ? await retrieveIntent(deps, lapsed) : null;
    if (intent === undefined) stripeDown = true;
    if (intent === undefined || intent?.status === 'processing') continue;
    if (intent?.status === 'succeeded') {
      await applyIntentOutcome(deps, 'succeeded', intent);
      settled += 1;
      continue;
    }
    if (
      !(await cancelCheckout(
        deps,
        lapsed,
        intent?.last_payment_error?.code === 'payment_intent_authentication_failure' ? 'three_d_secure' : 'declined',
      ))
    )
      continue;
    settled += 1;
    if (intent && intent.status !== 'canceled') await cancelIntent(deps, lapsed.orderId, intent.id);
  }
  return settled;
}

/** The intent as Stripe has it; undefined when Stripe cannot be asked now. */
async function retrieveIntent(deps: Deps, lapsed: LapsedCheckout): Promise<Stripe.PaymentIntent | null | undefined> {
  if (!deps.stripe || !lapsed.paymentIntentId) return null;
  try {
    return await deps.stripe.paymentIntents.retrieve(lapsed.paymentIntentId);
  } catch (err) {
    if (isPermanentStripeError(err)) {
      // Nothing at Stripe can be paid or cancelled: the checkout lapses like one without an intent.
      deps.log.warn(
        { orderId: lapsed.orderId, code: (err as { code?: unknown }).code },
        'the PaymentIntent of a lapsed checkout is unknown to Stripe; cancelling the checkout without it',
      );
      return null;
    }
    deps.log.warn(
      { err, orderId: lapsed.orderId },
      'could not read the PaymentIntent of a lapsed checkout; will try again',
    );
    return undefined;
  }
}

async function cancelCheckout(
  deps: Deps,
  lapsed: LapsedCheckout,
  failure: 'declined' | 'three_d_secure',
): Promise<boolean> {
  const now = deps.clock.now();
  return transactionWithRetry(deps.db, async (tx) => {
    const claimed = await claimLapsedCheckout(tx, lapsed.bookingId, now);
    if (!claimed) return false;
    const booking = await lockBooking(tx, claimed.bookingId);
    const declined = booking.status === 'payment_failed';
    await lapseCheckout({ tx, now, log: deps.log, actor: SYSTEM }, booking, claimed.orderId, claimed.reservationId);
    // One e-mail when the checkout finally lapses: "Payment not completed" after a declined attempt
    // (naming a failed 3-D Secure check), otherwise the hold simply ended (issue 37 item 3).
    const details = await bookingDetails(tx, claimed.bookingId);
    const mail = declined
      ? paymentFailedMail(details, deps.config.BRAND_NAME, deps.config.PUBLIC_URL, failure)
      : holdLapsedMail(details, deps.config.BRAND_NAME, deps.config.PUBLIC_URL);
    await enqueueMail(tx, mail);
    return true;
  });
}

/**
 * Cancels the intent so the customer cannot pay for the lapsed checkout any more. If they paid in
 * between, Stripe refuses and the payment is applied now (confirmed if the session is still free,
 * refunded if not); if Stripe is down, the reconciliation job retries the cancel.
 */
export async function cancelIntent(deps: Deps, orderId: string, intentId: string): Promise<void> {
  const stripe = deps.stripe;
  if (!stripe) return;
  try {
    await stripe.paymentIntents.cancel(intentId, {}, { idempotencyKey: `order-${orderId}-cancel-intent` });
  } catch (err) {
    deps.log.warn({ err, orderId }, 'could not cancel the PaymentIntent of a lapsed checkout');
    const intent = await stripe.paymentIntents.retrieve(intentId).catch(() => null);
    if (intent?.status === 'succeeded') await applyIntentOutcome(deps, 'succeeded', intent);
  }
}
