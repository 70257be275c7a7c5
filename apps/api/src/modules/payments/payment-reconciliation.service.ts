import type { FastifyInstance } from 'fastify';
import type Stripe from 'stripe';
import {
  claimOrdersToReconcile,
  giveUpReconciling,
  setReconcileAt,
  type OrderToReconcile,
} from './payment-reconciliation.repository';
import { applyIntentOutcome, outcomeOf } from './payments.service';
import { describeStripeError, isPermanentStripeError } from './stripe-failures';
import { cancelIntent } from './unpaid-checkouts.service';
import { claimVouchersToReconcile, updateVoucher } from '../vouchers/vouchers.repository';

type Deps = Pick<FastifyInstance, 'db' | 'clock' | 'config' | 'stripe' | 'log' | 'slotState'>;

export const RECONCILE_POLICY = {
  /** Longer than a Stripe call with its retries, so no other process claims an order being looked at. */
  leaseMs: 2 * 60_000,
  /** Unsettled orders are looked at again after about their own age (so ever less often), at most this far apart. */
  maxRecheckMs: 60 * 60_000,
  batchSize: 50,
};

/**
 * The repair for a webhook that never came (the API died between the payment and the booking
 * write, the endpoint was down past Stripe's retries): unpaid orders older than the grace period
 * are compared with their PaymentIntent at Stripe, and what it shows is applied exactly as the
 * webhook would have (payments.service.ts applyIntentOutcome). Returns how many were looked at.
 */
export async function reconcilePayments(deps: Deps): Promise<number> {
  if (!deps.stripe) return 0;
  const now = deps.clock.now();
  const claimed = await claimOrdersToReconcile(
    deps.db,
    now,
    new Date(now.getTime() + RECONCILE_POLICY.leaseMs),
    RECONCILE_POLICY.batchSize,
  );
  let reachable = true;
  for (const order of claimed) {
    // Stripe unreachable: stop here (each further read would wait out the SDK's retries); the
    // leases of this batch run out and its orders are claimed again.
    if (!(reachable = await reconcileOrder(deps, deps.stripe, order))) break;
  }
  return claimed.length + (reachable ? await reconcileVoucherSales(deps, deps.stripe, now) : 0);
}

/** Gift vouchers bought and not yet paid, read at Stripe the same way (decision 0112). */
async function reconcileVoucherSales(deps: Deps, stripe: Stripe, now: Date): Promise<number> {
  const claimed = await claimVouchersToReconcile(
    deps.db,
    now,
    new Date(now.getTime() + RECONCILE_POLICY.leaseMs),
    RECONCILE_POLICY.batchSize,
  );
  for (const voucher of claimed) {
    let intent: Stripe.PaymentIntent;
    try {
      intent = await stripe.paymentIntents.retrieve(voucher.paymentIntentId);
    } catch (err) {
      if (isPermanentStripeError(err)) {
        await updateVoucher(deps.db, voucher.id, { reconcileAt: null });
        deps.log.error({ voucherId: voucher.id }, 'voucher payment reconciliation stopped: Stripe refuses the request');
        continue;
      }
      deps.log.warn(
        { err, voucherId: voucher.id },
        'could not read a voucher PaymentIntent to reconcile; will try again',
      );
      break;
    }
    const outcome = outcomeOf(intent);
    await applyIntentOutcome(deps, outcome, intent);
    // Looked at again after about its own age (so ever less often), unless settled.
    const age = now.getTime() - voucher.createdAt.getTime();
    if (outcome !== 'succeeded')
      await updateVoucher(deps.db, voucher.id, {
        reconcileAt:
          outcome === 'canceled'
            ? null
            : new Date(now.getTime() + Math.min(Math.max(age, 60_000), RECONCILE_POLICY.maxRecheckMs)),
      });
  }
  return claimed.length;
}

/** False when Stripe could not be asked. */
async function reconcileOrder(deps: Deps, stripe: Stripe, order: OrderToReconcile): Promise<boolean> {
  let intent: Stripe.PaymentIntent;
  try {
    intent = await stripe.paymentIntents.retrieve(order.paymentIntentId);
  } catch (err) {
    if (isPermanentStripeError(err)) {
      // Asking again would get the same answer every pass, forever. The order says why it stopped
      // (orders.reconcile_error); the hold-expiry job cancels its booking when the hold lapses.
      await giveUpReconciling(deps.db, order.orderId, describeStripeError(err), deps.clock.now());
      deps.log.error(
        {
          orderId: order.orderId,
          bookingId: order.bookingId,
          paymentIntentId: order.paymentIntentId,
          code: (err as { code?: unknown }).code,
        },
        'payment reconciliation stopped for an order: Stripe has no such PaymentIntent or refuses the request (see ' +
          'orders.reconcile_error)',
      );
      return true;
    }
    deps.log.warn({ err, orderId: order.orderId }, 'could not read a PaymentIntent to reconcile; will try again');
    return false;
  }
  const outcome = outcomeOf(intent);
  await applyIntentOutcome(deps, outcome, intent);
  // A checkout cancelled while Stripe was down may still have a payable intent: cancel it now.
  if (outcome !== 'succeeded' && outcome !== 'canceled' && order.bookingStatus === 'cancelled') {
    await cancelIntent(deps, order.orderId, intent.id);
  }
  const settled = outcome === 'succeeded' || outcome === 'canceled';
  await setReconcileAt(
    deps.db,
    order.orderId,
    settled ? null : nextLook(deps.clock.now(), order.createdAt, deps.config.PAYMENT_RECONCILE_GRACE_SECONDS),
  );
  return true;
}

function nextLook(now: Date, createdAt: Date, graceSeconds: number): Date {
  const age = now.getTime() - createdAt.getTime();
  return new Date(now.getTime() + Math.min(Math.max(age, graceSeconds * 1000), RECONCILE_POLICY.maxRecheckMs));
}
