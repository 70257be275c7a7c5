import { randomToken } from './ids';
import type { RequestInfo, SandboxState, ThreeDSecureAttempt } from './sandbox-state';
import type { PaymentIntent, PaymentMethod } from './stripe-objects';
import { chargeAndSettle } from './charges.service';

/** Starts the bank's challenge: the PaymentIntent waits in requires_action on the test bank page. */
export function startThreeDSecure(
  state: SandboxState,
  pi: PaymentIntent,
  pm: PaymentMethod,
  returnUrl: string | null,
  publicUrl: string,
): ThreeDSecureAttempt {
  cancelThreeDSecure(state, pi.id);
  const attempt: ThreeDSecureAttempt = {
    token: randomToken(32),
    paymentIntentId: pi.id,
    paymentMethodId: pm.id,
    returnUrl,
    settled: false,
  };
  state.threeDSecure.set(attempt.token, attempt);
  pi.status = 'requires_action';
  pi.payment_method = pm.id;
  pi.last_payment_error = null;
  pi.next_action = {
    type: 'redirect_to_url',
    redirect_to_url: { url: `${publicUrl}/test-bank/3ds/${attempt.token}`, return_url: returnUrl },
  };
  return attempt;
}

/** Voids a pending challenge when the PaymentIntent moves on without it (cancel, new confirm). */
export function cancelThreeDSecure(state: SandboxState, paymentIntentId: string): void {
  for (const attempt of state.threeDSecure.values()) {
    if (attempt.paymentIntentId === paymentIntentId) attempt.settled = true;
  }
}

export type ThreeDSecureResult = 'succeeded' | 'failed';

/** The customer's answer on the test bank page; false when the attempt is no longer pending. */
export function answerThreeDSecure(
  state: SandboxState,
  attempt: ThreeDSecureAttempt,
  approve: boolean,
  request: RequestInfo,
): ThreeDSecureResult | null {
  const pi = state.paymentIntents.get(attempt.paymentIntentId);
  const pm = state.paymentMethods.get(attempt.paymentMethodId);
  if (attempt.settled || !pi || !pm || pi.status !== 'requires_action') return null;
  attempt.settled = true;
  pi.next_action = null;
  if (approve) {
    chargeAndSettle(state, pi, pm, { kind: 'success' }, request, true);
    return 'succeeded';
  }
  pi.status = 'requires_payment_method';
  pi.payment_method = null;
  pi.last_payment_error = {
    type: 'invalid_request_error',
    code: 'payment_intent_authentication_failure',
    message:
      'The provided PaymentMethod has failed authentication. You can provide payment_method_data or a new ' +
      'PaymentMethod to attempt to fulfill this PaymentIntent again.',
    doc_url: 'https://stripe.com/docs/error-codes/payment-intent-authentication-failure',
    payment_method: pm,
  };
  state.emit('payment_intent.payment_failed', pi, request);
  return 'failed';
}
