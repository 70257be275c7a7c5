import { openDispute } from './disputes.service';
import { newId, unixNow } from './ids';
import type { RequestInfo, SandboxState } from './sandbox-state';
import type { CardOutcome } from './test-cards';
import type { Charge, PaymentError, PaymentIntent, PaymentMethod } from './stripe-objects';

export interface ChargeFailure {
  code: string;
  declineCode: string;
  message: string;
}

/** The charge behind one payment attempt; Stripe makes one for declines too (status failed). */
export function createCharge(
  state: SandboxState,
  pi: PaymentIntent,
  pm: PaymentMethod,
  opts: { failure?: ChargeFailure; threeDSecure?: boolean },
): Charge {
  const { fingerprint: _fingerprint, ...card } = pm.card;
  const failed = opts.failure !== undefined;
  const charge: Charge = {
    id: newId('ch'),
    object: 'charge',
    amount: pi.amount,
    amount_captured: failed ? 0 : pi.amount,
    amount_refunded: 0,
    balance_transaction: failed ? null : newId('txn'),
    billing_details: pm.billing_details,
    captured: !failed,
    created: unixNow(),
    currency: pi.currency,
    customer: null,
    description: pi.description,
    failure_code: opts.failure?.code ?? null,
    failure_message: opts.failure?.message ?? null,
    livemode: false,
    metadata: { ...pi.metadata },
    outcome: failed
      ? {
          network_status: 'declined_by_network',
          reason: opts.failure!.declineCode,
          risk_level: 'normal',
          seller_message: 'The bank did not return any further details with this decline.',
          type: 'issuer_declined',
        }
      : {
          network_status: 'approved_by_network',
          reason: null,
          risk_level: 'normal',
          seller_message: 'Payment complete.',
          type: 'authorized',
        },
    paid: !failed,
    payment_intent: pi.id,
    payment_method: pm.id,
    payment_method_details: {
      type: 'card',
      card: { ...card, three_d_secure: opts.threeDSecure ? { result: 'authenticated' } : null },
    },
    receipt_email: pi.receipt_email,
    receipt_url: `https://pay.stripe.com/receipts/sandbox/${pi.id}`,
    refunded: false,
    disputed: false,
    status: failed ? 'failed' : 'succeeded',
  };
  state.charges.set(charge.id, charge);
  return charge;
}

export function paymentError(charge: Charge, pm: PaymentMethod, failure: ChargeFailure): PaymentError {
  const code = failure.code;
  return {
    type: 'card_error',
    code,
    decline_code: failure.declineCode,
    message: failure.message,
    doc_url: `https://stripe.com/docs/error-codes/${code.replaceAll('_', '-')}`,
    charge: charge.id,
    payment_method: pm,
  };
}

/** Charges the card and moves the PaymentIntent to succeeded or back to requires_payment_method. */
export function chargeAndSettle(
  state: SandboxState,
  pi: PaymentIntent,
  pm: PaymentMethod,
  outcome: Exclude<CardOutcome, { kind: 'three_d_secure' }>,
  request: RequestInfo,
  threeDSecure: boolean,
): PaymentError | null {
  pi.next_action = null;
  if (outcome.kind === 'success') {
    const charge = createCharge(state, pi, pm, { threeDSecure });
    pi.status = 'succeeded';
    pi.amount_received = pi.amount;
    pi.latest_charge = charge.id;
    pi.payment_method = pm.id;
    pi.last_payment_error = null;
    state.emit('charge.succeeded', charge, request);
    state.emit('payment_intent.succeeded', pi, request);
    if (outcome.dispute) openDispute(state, charge, request);
    return null;
  }
  const failure = { code: outcome.code, declineCode: outcome.declineCode, message: outcome.message };
  const charge = createCharge(state, pi, pm, { failure });
  const error = paymentError(charge, pm, failure);
  pi.status = 'requires_payment_method';
  pi.latest_charge = charge.id;
  pi.payment_method = null;
  pi.last_payment_error = error;
  state.emit('charge.failed', charge, request);
  state.emit('payment_intent.payment_failed', pi, request);
  return error;
}
