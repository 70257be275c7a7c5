import { newId, unixNow } from './ids';
import { mergeMetadata, type ParamsReader } from './params-reader';
import type { RequestInfo, SandboxState } from './sandbox-state';
import type { Charge, Refund } from './stripe-objects';
import { invalidParam, missingParam, noSuchResource, StripeError } from './stripe-errors';

export const REFUND_FIELDS = ['payment_intent', 'charge', 'amount', 'reason', 'metadata'];

export function getRefund(state: SandboxState, id: string): Refund {
  const refund = state.refunds.get(id);
  if (!refund) throw noSuchResource('refund', id);
  return refund;
}

/** Refunds all or part of what is left of a PaymentIntent's successful charge. */
export function createRefund(state: SandboxState, p: ParamsReader, request: RequestInfo): Refund {
  const amount = p.integer('amount');
  const reason = p.oneOf('reason', ['duplicate', 'fraudulent', 'requested_by_customer'] as const);
  const metadata = p.metadata();
  if (amount !== undefined && amount < 1)
    throw invalidParam('amount', 'Invalid positive integer', 'parameter_invalid_integer');
  const charge = refundableCharge(state, p);
  const remaining = charge.amount_captured - charge.amount_refunded;
  if (remaining <= 0) {
    throw new StripeError({
      status: 400,
      type: 'invalid_request_error',
      code: 'charge_already_refunded',
      message: `Charge ${charge.id} has already been refunded.`,
    });
  }
  if (amount !== undefined && amount > remaining) {
    throw new StripeError({
      status: 400,
      type: 'invalid_request_error',
      code: 'amount_too_large',
      param: 'amount',
      message:
        `Refund amount (${money(amount, charge.currency)}) is greater than unrefunded amount on charge ` +
        `(${money(remaining, charge.currency)})`,
    });
  }
  const refund: Refund = {
    id: newId('re'),
    object: 'refund',
    amount: amount ?? remaining,
    balance_transaction: newId('txn'),
    charge: charge.id,
    created: unixNow(),
    currency: charge.currency,
    metadata: mergeMetadata({}, metadata ?? {}),
    payment_intent: charge.payment_intent,
    reason: reason ?? null,
    receipt_number: null,
    source_transfer_reversal: null,
    status: 'succeeded',
    transfer_reversal: null,
  };
  state.refunds.set(refund.id, refund);
  const previous = { amount_refunded: charge.amount_refunded, refunded: charge.refunded };
  charge.amount_refunded += refund.amount;
  charge.refunded = charge.amount_refunded >= charge.amount_captured;
  state.emit('refund.created', refund, request);
  state.emit('charge.refunded', charge, request, previous);
  return refund;
}

function refundableCharge(state: SandboxState, p: ParamsReader): Charge {
  const piId = p.string('payment_intent');
  const chargeId = p.string('charge');
  if (piId && chargeId)
    throw invalidParam('charge', 'You may only specify one of these parameters: charge, payment_intent.');
  if (chargeId) {
    const charge = state.charges.get(chargeId);
    if (!charge) throw noSuchResource('charge', chargeId, 'charge');
    if (charge.status !== 'succeeded')
      throw notRefundable(`Charge ${charge.id} has not succeeded and cannot be refunded.`);
    return charge;
  }
  if (!piId) throw missingParam('payment_intent');
  const pi = state.paymentIntents.get(piId);
  if (!pi) throw noSuchResource('payment_intent', piId, 'payment_intent');
  const charge = pi.latest_charge ? state.charges.get(pi.latest_charge) : undefined;
  if (pi.status !== 'succeeded' || !charge || charge.status !== 'succeeded') {
    throw notRefundable(`This PaymentIntent (${pi.id}) does not have a successful charge to refund.`);
  }
  return charge;
}

function notRefundable(message: string): StripeError {
  return new StripeError({ status: 400, type: 'invalid_request_error', code: 'charge_not_refundable', message });
}

function money(cents: number, currency: string): string {
  return new Intl.NumberFormat('en-AU', { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}
